import { Global, Module } from '@nestjs/common';
import { TrafficPolicy } from '@mp/carrier';
import { QueueName } from '@mp/queue-contracts';
import { QUEUE_CONCURRENCY, type QueueConcurrency } from '@mp/queue-runtime';
import { SmsDispatcherEnv } from './sms-dispatcher.env';

/** The dispatcher's traffic policy, from its configuration: the settings it has, the defaults for the rest. */
export function trafficPolicyOf(config: SmsDispatcherEnv): TrafficPolicy {
  return new TrafficPolicy({
    campaigns: { pacePerSecond: config.CAMPAIGN_PACE_WHILE_OTHERS_FLOW },
    unrecorded: { max: config.SUBMIT_MAX_UNRECORDED },
  });
}

/** Jobs of each of the dispatcher's queues run at once: its lane's, under the policy. */
export function queueConcurrencyOf(traffic: TrafficPolicy): QueueConcurrency {
  return {
    [QueueName.OtpDispatch]: traffic.lane('urgent').jobsAtOnce,
    [QueueName.SmsDispatch]: traffic.lane('normal').jobsAtOnce,
    [QueueName.CampaignDispatch]: traffic.lane('bulk').jobsAtOnce,
  };
}

/**
 * The traffic policy, made once and injected wherever a rule of it is applied (the carrier's
 * windows, the submitter's pace and permits, the recorder's group commits), and the queue workers'
 * concurrency from it. Global, so that the queue module sees the concurrency.
 */
@Global()
@Module({
  providers: [
    { provide: TrafficPolicy, useFactory: trafficPolicyOf, inject: [SmsDispatcherEnv] },
    { provide: QUEUE_CONCURRENCY, useFactory: queueConcurrencyOf, inject: [TrafficPolicy] },
  ],
  exports: [TrafficPolicy, QUEUE_CONCURRENCY],
})
export class TrafficModule {}

import { Module, type INestApplicationContext } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { AppConfigModule } from '@mp/app-runtime';
import { TrafficPolicy } from '@mp/carrier';
import { loadConfig } from '@mp/config';
import { QUEUE_POLICIES, QueueName } from '@mp/queue-contracts';
import { QUEUE_RUNTIME_OPTIONS, QueueWorkerHost } from '@mp/queue-runtime';
import { SmsDispatcherEnv } from './sms-dispatcher.env';
import { queueConcurrencyOf, TrafficModule, trafficPolicyOf } from './traffic.module';

describe('the dispatcher traffic policy', () => {
  it('is the default policy under the default configuration', () => {
    expect(trafficPolicyOf(loadConfig(SmsDispatcherEnv, {}))).toEqual(new TrafficPolicy());
  });

  it('takes its pace and its parts in doubt from the configuration', () => {
    const policy = trafficPolicyOf(loadConfig(SmsDispatcherEnv, { CAMPAIGN_PACE_WHILE_OTHERS_FLOW: '150', SUBMIT_MAX_UNRECORDED: '500' }));
    expect(policy.campaigns.pacePerSecond).toBe(150);
    expect(policy.unrecorded.max).toBe(500);
    expect(policy.lane('bulk')).toMatchObject({ pacePerSecond: 150, unrecordedPermits: 450 });
    expect(policy.lane('urgent').unrecordedPermits).toBe(500);
    expect(policy.campaigns.windowShare).toBe(TrafficPolicy.DEFAULTS.campaigns.windowShare);
  });

  it("sets each queue's jobs at once from its lane", () => {
    const policy = new TrafficPolicy({ jobsAtOnce: { urgent: 100, normal: 10, bulk: 1 } });
    expect(queueConcurrencyOf(policy)).toEqual({ [QueueName.OtpDispatch]: 100, [QueueName.SmsDispatch]: 10, [QueueName.CampaignDispatch]: 1 });
  });

  describe('in the application', () => {
    let app: INestApplicationContext;

    beforeAll(async () => {
      const config = loadConfig(SmsDispatcherEnv, { SUBMIT_MAX_UNRECORDED: '200' });
      @Module({
        imports: [DiscoveryModule],
        providers: [QueueWorkerHost, { provide: QUEUE_RUNTIME_OPTIONS, useValue: { redisUrl: '', prefix: 'test', appName: 'test', consume: [] } }],
      })
      class Workers {}
      @Module({ imports: [AppConfigModule.forRoot(config), TrafficModule, Workers] })
      class Dispatcher {}
      app = await NestFactory.createApplicationContext(Dispatcher, { logger: false });
    });
    afterAll(() => app.close());

    it('is made once from the configuration, and the queue workers run its numbers of jobs', () => {
      const policy = app.get(TrafficPolicy);
      expect(policy.unrecorded.max).toBe(200);
      const workers = app.get(QueueWorkerHost);
      expect(workers.concurrencyOf(QueueName.OtpDispatch)).toBe(policy.lane('urgent').jobsAtOnce);
      expect(workers.concurrencyOf(QueueName.SmsDispatch)).toBe(policy.lane('normal').jobsAtOnce);
      expect(workers.concurrencyOf(QueueName.CampaignDispatch)).toBe(policy.lane('bulk').jobsAtOnce);
      expect(workers.concurrencyOf(QueueName.OtpDispatch)).toBe(512);
      expect(workers.concurrencyOf(QueueName.WebhookDeliver)).toBe(QUEUE_POLICIES[QueueName.WebhookDeliver].concurrency);
    });
  });
});

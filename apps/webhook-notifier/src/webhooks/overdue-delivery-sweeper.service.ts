import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { InFlight } from '@mp/batching';
import { QueueName } from '@mp/queue-contracts';
import { QueueProducer } from '@mp/queue-runtime';
import { WebhookDeliveryRepository } from '@mp/webhooks-data-access';
import { WebhookNotifierEnv } from '../webhook-notifier.env';
import { deliverJobId } from './delivery-schedule';

/**
 * Re-enqueues the next attempt of pending deliveries that are well past due: their job was lost
 * with Redis. The job id is the attempt's, so one that still exists is not enqueued twice.
 */
@Injectable()
export class OverdueDeliverySweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('OverdueDeliverySweeper');
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly rounds = new InFlight();

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly producer: QueueProducer,
    private readonly config: WebhookNotifierEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.rounds.track(this.sweepOnce()), this.config.WEBHOOK_SWEEP_MS);
  }

  /** Before the connections close: no new round, and the one under way finishes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.rounds.settled();
  }

  /** Returns how many deliveries were re-enqueued. */
  async sweepOnce(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const overdue = await this.deliveries.findOverdue(this.config.WEBHOOK_OVERDUE_MS, 1_000);
      for (const { id, nextAttempt } of overdue) {
        await this.producer.enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId: id }, { jobId: deliverJobId(id, nextAttempt) });
      }
      if (overdue.length > 0) this.logger.warn({ msg: 're-enqueued overdue webhook deliveries', deliveries: overdue.length });
      return overdue.length;
    } catch (error) {
      this.logger.warn({ msg: 'overdue webhook sweep failed; trying again next round', err: error });
      return 0;
    } finally {
      this.running = false;
    }
  }
}

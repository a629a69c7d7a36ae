import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CampaignCompletion } from '@mp/messaging';
import { OutboxRelay } from '@mp/queue-runtime';
import { SmsDispatcherEnv } from './sms-dispatcher.env';

/**
 * Every round: enqueues jobs that were committed but missed their relay (Redis was down at that
 * moment), and records the campaigns that finished, enqueueing their campaign.completed event.
 */
@Injectable()
export class OutboxSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxSweeper');
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly config: SmsDispatcherEnv,
    private readonly campaigns: CampaignCompletion,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweepOnce(), this.config.OUTBOX_SWEEP_MS);
  }

  async sweepOnce(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.relay.sweep();
      const { completed, outbox } = await this.campaigns.completeFinished();
      if (outbox.jobs.length > 0) await this.relay.relay(outbox.ids, outbox.jobs);
      if (completed > 0) this.logger.log({ msg: 'campaigns completed', campaigns: completed });
    } catch (error) {
      this.logger.warn({ msg: 'outbox sweep failed; trying again next round', err: error });
    } finally {
      this.running = false;
    }
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

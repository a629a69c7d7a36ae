import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { InFlight } from '@mp/batching';
import { CampaignCompletion } from '@mp/messaging';
import { OutboxRelay } from '@mp/queue-runtime';
import { SmsDispatcherEnv } from './sms-dispatcher.env';

/**
 * Every round: enqueues jobs that were committed but missed their relay (Redis was down at that
 * moment), and records the campaigns that finished, enqueueing their campaign.completed event.
 */
@Injectable()
export class OutboxSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('OutboxSweeper');
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly rounds = new InFlight();

  constructor(
    private readonly relay: OutboxRelay,
    private readonly config: SmsDispatcherEnv,
    private readonly campaigns: CampaignCompletion,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.rounds.track(this.sweepOnce()), this.config.OUTBOX_SWEEP_MS);
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

  /** Before the connections close: no new round, and the one under way finishes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.rounds.settled();
  }
}

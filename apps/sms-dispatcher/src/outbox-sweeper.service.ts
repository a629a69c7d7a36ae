import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { OutboxRelay } from '@mp/queue-runtime';
import { SmsDispatcherEnv } from './sms-dispatcher.env';

/** Enqueues jobs that were committed but missed their relay (Redis was down at that moment). */
@Injectable()
export class OutboxSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxSweeper');
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly config: SmsDispatcherEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweepOnce(), this.config.OUTBOX_SWEEP_MS);
  }

  async sweepOnce(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.relay.sweep();
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

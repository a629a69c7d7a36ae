import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { InFlight } from '@mp/batching';
import { OtpLifecycle } from '@mp/otp';
import { OutboxRelay } from '@mp/queue-runtime';
import { OtpEnv } from '../otp.env';

/** Marks pending OTPs past their expiry `expired` every few seconds, with their log entry and webhook event. */
@Injectable()
export class OtpExpirySweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('OtpExpirySweeper');
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly rounds = new InFlight();

  constructor(
    private readonly lifecycle: OtpLifecycle,
    private readonly relay: OutboxRelay,
    private readonly config: OtpEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.rounds.track(this.sweepOnce()), this.config.OTP_EXPIRY_SWEEP_MS);
  }

  /** Before the connections close: no new round, and the one under way finishes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.rounds.settled();
  }

  /** Returns how many OTPs expired this round. */
  async sweepOnce(now: Date = new Date()): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const { outbox, expired } = await this.lifecycle.expireDue(now);
      if (outbox.jobs.length > 0) await this.relay.relay(outbox.ids, outbox.jobs);
      if (expired > 0) this.logger.log({ msg: 'OTPs expired', expired });
      return expired;
    } catch (error) {
      this.logger.warn({ msg: 'OTP expiry sweep failed; trying again next round', err: error });
      return 0;
    } finally {
      this.running = false;
    }
  }
}

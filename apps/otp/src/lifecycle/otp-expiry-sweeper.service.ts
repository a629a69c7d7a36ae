import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { OtpLifecycle } from '@mp/otp';
import { OutboxRelay } from '@mp/queue-runtime';
import { OtpEnv } from '../otp.env';

/** Marks pending OTPs past their expiry `expired` every few seconds, with their log entry and webhook event. */
@Injectable()
export class OtpExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OtpExpirySweeper');
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly lifecycle: OtpLifecycle,
    private readonly relay: OutboxRelay,
    private readonly config: OtpEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweepOnce(), this.config.OTP_EXPIRY_SWEEP_MS);
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
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

import type { Money } from '@mp/billing-domain';

/** 3 wrong codes for this recipient of this application within 30 minutes: refused until `until`. */
export class OtpBlockedError extends Error {
  constructor(readonly until: Date, readonly retryAfterSeconds: number) {
    super(`Too many failed attempts; try again in ${retryAfterSeconds} seconds`);
    this.name = 'OtpBlockedError';
  }
}

/** The template asked for is not the application's, or shows no code. */
export class OtpTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OtpTemplateError';
  }
}

/** The balance does not cover the OTP: nothing was stored, sent or charged. */
export class OtpNotAffordableError extends Error {
  constructor(readonly balance: Money, readonly cost: Money) {
    super('Insufficient balance');
    this.name = 'OtpNotAffordableError';
  }
}

export class OtpNoPriceError extends Error {
  constructor(readonly recipient: string, readonly route: string) {
    super(`No price is set for ${recipient} on route ${route}`);
    this.name = 'OtpNoPriceError';
  }
}

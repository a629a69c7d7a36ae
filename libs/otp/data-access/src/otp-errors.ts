import type { Money } from '@mp/billing-domain';

/** 3 wrong codes for this recipient of this application within 30 minutes: refused until `until`. */
export class OtpBlockedError extends Error {
  constructor(
    readonly until: Date,
    readonly retryAfterSeconds: number,
  ) {
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
  constructor(
    readonly balance: Money,
    readonly cost: Money,
  ) {
    super('Insufficient balance');
    this.name = 'OtpNotAffordableError';
  }
}

export class OtpNoPriceError extends Error {
  constructor(
    readonly recipient: string,
    readonly route: string,
  ) {
    super(`No price is set for ${recipient} on route ${route}`);
    this.name = 'OtpNoPriceError';
  }
}

/** No OTP of this company matches. */
export class OtpNotFoundError extends Error {
  constructor() {
    super('OTP not found');
    this.name = 'OtpNotFoundError';
  }
}

/** A resend the rules refuse: too soon after the last send (with the wait), or past the fifth. */
export class OtpResendRefusedError extends Error {
  constructor(
    readonly reason: 'too-soon' | 'too-many',
    readonly retryAfterSeconds: number | null,
  ) {
    super(reason === 'too-soon' ? `Resent too soon; try again in ${retryAfterSeconds} seconds` : 'This OTP was resent 5 times already; send a new one');
    this.name = 'OtpResendRefusedError';
  }
}

/** The OTP can no longer be sent: verified, cancelled, or failed on wrong codes. */
export class OtpNotResendableError extends Error {
  constructor(
    readonly status: string,
    readonly failureReason: string | null = null,
  ) {
    super(notResendableText(status, failureReason));
    this.name = 'OtpNotResendableError';
  }
}

function notResendableText(status: string, failureReason: string | null): string {
  if (status === 'verified') return 'OTP already verified';
  if (failureReason === 'too_many_attempts') return 'OTP failed after too many wrong codes; send a new one';
  return `OTP is ${status}; send a new one`;
}

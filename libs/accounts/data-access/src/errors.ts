/** The company, application or key an operator named does not exist. */
export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** An operator's argument is not acceptable; the message says which and why. */
export class InvalidArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidArgumentError';
  }
}

/** An account (not removed) already has this email. */
export class EmailTakenError extends Error {
  constructor(readonly email: string) {
    super(`a user with the email ${email} already exists`);
    this.name = 'EmailTakenError';
  }
}

/** An invitation link that is unknown, used already or past its time. */
export class InvitationUnusableError extends Error {
  constructor(readonly reason: 'unknown' | 'accepted' | 'expired') {
    super(reason === 'unknown' ? 'Invitation not found' : reason === 'accepted' ? 'Invitation already used' : 'Invitation expired');
    this.name = 'InvitationUnusableError';
  }
}

/** A company must keep at least one owner. */
export class LastOwnerError extends Error {
  constructor() {
    super('A company must keep at least one owner');
    this.name = 'LastOwnerError';
  }
}

/** What the operator asked for was already done once (a top-up with the same reference). */
export class AlreadyRecordedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AlreadyRecordedError';
  }
}

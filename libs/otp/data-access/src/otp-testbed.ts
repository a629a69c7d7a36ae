import { accountsRepositories, AccountsService, ApplicationRepository } from '@mp/accounts';
import { DEFAULT_APPLICATION_SETTINGS } from '@mp/accounts-domain';
import { LedgerRepository } from '@mp/billing';
import { MessageRepository } from '@mp/messaging';
import { openText, parseTextKey } from '@mp/otp-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OtpLifecycle } from './otp-lifecycle';
import { OtpResender } from './otp-resender';
import { OtpSender, type OtpSendCommand } from './otp-sender';
import { OtpVerifier } from './otp-verifier';

export type OtpTestCompany = Awaited<ReturnType<OtpTestbed['company']>>;

/**
 * What the OTP integration specs (otp-sending, otp-verification, otp-resend) share: the services
 * over one database and one injected clock, companies to send for, send commands, and the code as
 * the handset would read it. For those specs only; not exported by the lib. Members are arrow
 * functions so a test can destructure them.
 */
export class OtpTestbed {
  readonly keys = { hash: randomBytes(32), text: parseTextKey(randomBytes(32).toString('base64')) };
  private clock = new Date('2026-11-22T10:00:00Z');
  readonly now = () => this.clock;
  /** Moves the clock on by ms. */
  readonly later = (ms: number) => (this.clock = new Date(this.clock.getTime() + ms));

  readonly accounts: AccountsService;
  readonly sender: OtpSender;
  readonly verifier: OtpVerifier;
  readonly resender: OtpResender;
  readonly lifecycle: OtpLifecycle;

  /** firstNumber: where this spec's recipients start (+33…), apart from the other specs'. */
  constructor(
    readonly db: DataSource,
    private nextNumber: number,
  ) {
    this.accounts = new AccountsService(db, accountsRepositories(db), 'otp-pepper-'.padEnd(40, 'x'));
    this.sender = new OtpSender(db, new MessageRepository(db), new LedgerRepository(db), this.keys, { now: this.now });
    this.verifier = new OtpVerifier(db, new OutboxRepository(db), this.keys.hash, { now: this.now });
    this.lifecycle = new OtpLifecycle(db, new OutboxRepository(db));
    this.resender = new OtpResender(db, new MessageRepository(db), new LedgerRepository(db), this.keys, { now: this.now });
  }

  readonly newNumber = () => `+33${this.nextNumber++}`;

  readonly company = async (balance = '1') => {
    const created = await this.accounts.createCompany({ name: `Otp ${this.nextNumber}`, balance });
    const app = await new ApplicationRepository(this.db).findByAppid(created.appid);
    if (!app) throw new Error('no application');
    return { companyId: created.company_id, application: { id: app.id, name: app.name, settings: { ...DEFAULT_APPLICATION_SETTINGS } } };
  };

  readonly command = (c: OtpTestCompany, overrides: Partial<OtpSendCommand> = {}): OtpSendCommand => ({
    ...c,
    recipient: this.newNumber(),
    channel: 'sms',
    sender: 'OTP',
    codeLength: 6,
    code: null,
    templateText: 'Code {{otp}} for {{app_name}}, valid {{expiry_minutes}} min',
    lang: 'en',
    customVars: {},
    expiryMinutes: null,
    ...overrides,
  });

  /** The delivery job committed for an OTP's current message. */
  readonly jobOf = async (verificationId: string): Promise<{ queue: string; job_name: string; job_id: string }> => {
    const [job] = await this.db.query(
      `SELECT b.queue, b.job_name, b.job_id FROM outbox b JOIN otps o ON b.job_id IN ('otp-' || o.message_id, 'otp-wa-' || o.message_id) WHERE o.id = $1`,
      [verificationId],
    );
    return job;
  };

  /** The code as the handset will show it: opened from the sealed message text. */
  readonly codeOf = async (verificationId: string): Promise<string> => {
    const [row] = await this.db.query(`SELECT m.body FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`, [verificationId]);
    return /Code (\d+)/.exec(openText(this.keys.text, row.body))?.[1] ?? '';
  };
}

import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { CommandStatus, NO_RESPONSE, TrafficPolicy, type OutgoingPart, type SubmitOutcome } from '@mp/carrier';
import { DispatchStore, MessageRepository, SmsAcceptanceService } from '@mp/messaging';
import { OutboxRepository, type OutboxRelay } from '@mp/queue-runtime';
import type { PlannedCarrier } from '@mp/routing-domain';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import type { CarrierPool } from '../carrier/carrier-pool.service';
import { SubmitSpans } from '../carrier/submit-spans';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { SubmitRecorder } from './submit-recorder.service';
import { SmsSubmitter } from './sms-submitter.service';

/** The SMSCs, scripted: each answers from its list, then accepts; every submit is kept. */
class ScriptedCarriers {
  readonly submits: { carrier: string; reference: number }[] = [];
  answers: Record<string, SubmitOutcome[]> = {};
  carriers: string[] = [];

  plan(): PlannedCarrier[] {
    return this.carriers.map((id) => ({ carrierId: id, entry: { prefix: '+', routeClass: 'auto', carrierId: id, priority: 1 }, tier: 'healthy' }));
  }
  isCarrierBound(): boolean {
    return true;
  }
  async submit(carrier: string, part: OutgoingPart): Promise<SubmitOutcome> {
    this.submits.push({ carrier, reference: part.userMessageReference });
    return this.answers[carrier]?.shift() ?? { ok: true, carrierMessageId: `${carrier}-${this.submits.length}-${Date.now()}` };
  }
}

/**
 * A job attempt that ends after timeouts on every carrier leaves them on the part, and the next
 * attempt tries them last (decision 0057). Real PostgreSQL and the dispatcher's own store and
 * recorder; only the SMSCs are scripted, since a timeout on demand is what is tested. No webhook,
 * so nothing is relayed.
 */
describe('SmsSubmitter across job attempts after timeouts (PostgreSQL)', () => {
  let db: DataSource;
  let store: DispatchStore;
  let recorder: SubmitRecorder;
  let submitter: SmsSubmitter;
  let send: () => Promise<string>;
  const smscs = new ScriptedCarriers();
  const noAnswer: SubmitOutcome = { ok: false, permanent: false, commandStatus: NO_RESPONSE, reason: 'no response' };
  const throttled: SubmitOutcome = { ok: false, permanent: false, commandStatus: CommandStatus.ESME_RTHROTTLED, reason: 'throttled' };
  const run = Date.now().toString(36);
  let recipient = 0;

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    store = new DispatchStore(db, new OutboxRepository(db));
    const accounts = new AccountsService(db, accountsRepositories(db), 'timeouts-pepper-'.padEnd(40, 'x'));
    const { company_id } = await accounts.createCompany({ name: `Timeouts ${run}`, balance: '100' });
    const acceptance = new SmsAcceptanceService(db, new MessageRepository(db), new LedgerRepository(db));
    send = async () => {
      const recipients = [`+4478${String((recipient += 1)).padStart(8, '0')}`];
      const accepted = await acceptance.accept(
        { companyId: company_id, sender: 'Acme', route: 'auto', body: 'hi', recipients, reference: null, webhookUrl: null, scheduledAt: null },
        DEFAULT_PRICES,
      );
      return accepted.messages[0].messageId;
    };
    const traffic = new TrafficPolicy();
    const relay = { relay: async () => undefined } as unknown as OutboxRelay;
    recorder = new SubmitRecorder(store, relay, traffic);
    submitter = new SmsSubmitter(store, smscs as unknown as CarrierPool, recorder, relay, new SubmitSpans(), new SmsDispatcherEnv(), traffic);
  });
  afterAll(async () => {
    await recorder.beforeApplicationShutdown();
    await db.destroy();
  });

  const part = async (messageId: string) => {
    const [row]: { status: string; carrier: string | null; timed_out_carriers: string[] | null }[] = await db.query(
      `SELECT status, carrier, timed_out_carriers FROM message_parts WHERE message_id = $1`,
      [messageId],
    );
    return row;
  };

  beforeEach(() => {
    smscs.submits.length = 0;
    smscs.answers = {};
  });

  it('records the carriers timed out on when none took the part, then tries a new one first and keeps them all', async () => {
    const id = await send();
    smscs.carriers = ['a', 'b'];
    smscs.answers = { a: [noAnswer], b: [noAnswer] };
    await expect(submitter.submit([id], 1)).rejects.toThrow('not accepted yet');
    expect(await part(id)).toEqual({ status: 'pending', carrier: null, timed_out_carriers: ['a', 'b'] });

    expect(smscs.submits.map((s) => s.carrier)).toEqual(['a', 'b']);

    smscs.submits.length = 0;
    smscs.carriers = ['a', 'b', 'c'];
    expect(await submitter.submit([id], 2)).toMatchObject({ submitted: 1 });
    expect(smscs.submits.map((s) => s.carrier)).toEqual(['c']);
    expect(await part(id)).toEqual({ status: 'submitted', carrier: 'c', timed_out_carriers: ['a', 'b'] });
  });

  it('goes back to a carrier that may hold the part only after the others, with the same user_message_reference', async () => {
    const id = await send();
    smscs.carriers = ['a', 'b'];
    smscs.answers = { a: [noAnswer], b: [throttled] };
    await expect(submitter.submit([id], 1)).rejects.toThrow('not accepted yet');
    expect(await part(id)).toMatchObject({ status: 'pending', timed_out_carriers: ['a'] });
    const [first] = smscs.submits;

    smscs.submits.length = 0;
    smscs.answers = { b: [throttled] };
    expect(await submitter.submit([id], 2)).toMatchObject({ submitted: 1 });
    expect(smscs.submits).toEqual([
      { carrier: 'b', reference: first.reference },
      { carrier: 'a', reference: first.reference },
    ]);
    expect(await part(id)).toEqual({ status: 'submitted', carrier: 'a', timed_out_carriers: ['a'] });
  });
});

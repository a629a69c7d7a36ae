import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource, spyOnStatements } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { DispatchStore, type CarrierReceipt, type DispatchResult, type SubmittedPart } from './dispatch-store';
import { MessageRepository } from './message.repository';
import { SmsAcceptanceService } from './sms-acceptance';

const HOOK = 'https://example.com/hooks/batch';
const SHORT = 'short';
const LONG = 'l'.repeat(200); // two parts
const THREE_PARTS = 't'.repeat(400);

/** The statements sent, without those that prepare a statement on a connection for the first time. */
const withoutPrepares = (statements: string[]) => statements.filter((text) => !text.startsWith('PREPARE '));

describe('DispatchStore batches (PostgreSQL)', () => {
  let db: DataSource;
  let store: DispatchStore;
  let send: (body: string, count: number, webhookUrl?: string | null) => Promise<string[]>;
  let recipient = 0;

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    store = new DispatchStore(db, new OutboxRepository(db));
    const accounts = new AccountsService(db, accountsRepositories(db), 'batch-pepper-'.padEnd(40, 'x'));
    const { company_id } = await accounts.createCompany({ name: 'Batch', balance: '100' });
    const acceptance = new SmsAcceptanceService(db, new MessageRepository(db), new LedgerRepository(db));
    send = async (body, count, webhookUrl = null) => {
      const recipients = Array.from({ length: count }, () => `+3361${String((recipient += 1)).padStart(7, '0')}`);
      const accepted = await acceptance.accept(
        { companyId: company_id, sender: 'Acme', route: 'auto', body, recipients, reference: null, webhookUrl, scheduledAt: null },
        DEFAULT_PRICES,
      );
      return accepted.messages.map((m) => m.messageId);
    };
  });
  afterAll(() => db.destroy());

  const statuses = async (ids: readonly string[]) => {
    const rows: { id: string; status: string }[] = await db.query(`SELECT id, status FROM messages WHERE id = ANY($1::uuid[])`, [ids]);
    return Object.fromEntries(rows.map((row) => [row.id, row.status]));
  };
  const receipt = (carrierMessageId: string, stat = 'DELIVRD'): CarrierReceipt => ({ carrierMessageId, stat, err: '000', doneAt: null });

  it('records single and multipart messages in one transaction with as many statements as one part', async () => {
    const hooked = await send(SHORT, 3, HOOK);
    const long = await send(LONG, 2);
    const records: SubmittedPart[] = [
      ...long.flatMap((id) => [1, 2].map((partIndex) => ({ messageId: id, partIndex, carrierMessageId: `b1-${id}-${partIndex}` }))),
      ...hooked.map((id) => ({ messageId: id, partIndex: 1, carrierMessageId: `b1-${id}-1` })),
    ];
    const [single] = await send(SHORT, 1, HOOK);
    const statements = spyOnStatements();
    const sent = () => withoutPrepares(statements.texts());
    try {
      await store.recordSubmittedMany([{ messageId: single, partIndex: 1, carrierMessageId: `b1-${single}-1` }]);
      const perPart = sent().length;
      expect(perPart).toBeGreaterThan(2);
      statements.clear();
      const result = await store.recordSubmittedMany(records);
      expect(sent()).toHaveLength(perPart);
      // The carrier ids' locks, then the multipart messages' rows: statements each connection keeps prepared.
      expect(sent()[0]).toMatch(
        /^BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL plan_cache_mode = force_generic_plan; EXECUTE mp_open_\w+\(ARRAY\[[^\]]*\]::text\[\]\); EXECUTE mp_open_\w+\(ARRAY\[[^\]]*\]::uuid\[\]\)$/,
      );
      expect(sent().filter((text) => /^(BEGIN|START TRANSACTION)/.test(text))).toHaveLength(1);
      expect(sent().at(-1)).toBe('COMMIT');
      expect(sortById(result.transitions)).toEqual(
        sortById([
          ...hooked.map((id) => ({ messageId: id, status: 'sent', webhookUrl: HOOK })),
          ...long.map((id) => ({ messageId: id, status: 'sent', webhookUrl: null })),
        ]),
      );
      expect(result.outbox.jobs.map((job) => job.jobId).sort()).toEqual(hooked.map((id) => `evt-${id}-sent`).sort());
    } finally {
      statements.restore();
    }
    expect(Object.values(await statuses([...hooked, ...long]))).toEqual(Array(5).fill('sent'));
    const parts = await db.query(`SELECT status, carrier_message_id FROM message_parts WHERE message_id = ANY($1::uuid[])`, [long]);
    expect(parts).toHaveLength(4);
    expect(parts.every((p: { status: string; carrier_message_id: string }) => p.status === 'submitted' && p.carrier_message_id.startsWith('b1-'))).toBe(true);
    expect(await store.recordSubmittedMany(records)).toEqual({ transitions: [], outbox: { ids: [], jobs: [] } });
  });

  it('locks no message row when every record says its message has one part: three round trips, the locks sent with the BEGIN', async () => {
    const [known, unknown] = [await send(SHORT, 2), await send(SHORT, 2)];
    const statements = spyOnStatements();
    try {
      await store.recordSubmittedMany(unknown.map((id) => ({ messageId: id, partIndex: 1, carrierMessageId: `b9-${id}` })));
      const unmarked = withoutPrepares(statements.texts());
      statements.clear();
      await store.recordSubmittedMany(known.map((id) => ({ messageId: id, partIndex: 1, carrierMessageId: `b9-${id}`, multipart: false })));
      const marked = withoutPrepares(statements.texts());
      expect(unmarked[0]).toMatch(/; EXECUTE mp_open_\w+\(ARRAY\[[^\]]*\]::uuid\[\]\)$/);
      expect(marked).toEqual([
        expect.stringMatching(
          /^BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL plan_cache_mode = force_generic_plan; EXECUTE mp_open_\w+\(ARRAY\[[^\]]*\]::text\[\]\)$/,
        ),
        expect.stringMatching(/^WITH parts AS \(\s*UPDATE message_parts/),
        'COMMIT',
      ]);
    } finally {
      statements.restore();
    }
    expect(Object.values(await statuses([...known, ...unknown]))).toEqual(Array(4).fill('sent'));
  });

  it('records parts whose messages have no webhook in one round trip, and applies a receipt that overtook them right after', async () => {
    const [early, plain] = await send(SHORT, 2);
    const [long] = await send(LONG, 1);
    // The receipt of `early` arrives before its submit_sm_resp is recorded: it is stored, waiting.
    await store.applyReceipts([receipt(`b7-${early}`)]);
    const statements = spyOnStatements();
    let result: Awaited<ReturnType<DispatchStore['recordSubmittedMany']>>;
    let sent: string[];
    try {
      result = await store.recordSubmittedMany([
        { messageId: early, partIndex: 1, carrierMessageId: `b7-${early}`, multipart: false, webhook: false },
        { messageId: plain, partIndex: 1, carrierMessageId: `b7-${plain}`, multipart: false, webhook: false },
        { messageId: long, partIndex: 1, carrierMessageId: `b7-${long}-1`, multipart: true, webhook: false },
        { messageId: long, partIndex: 2, carrierMessageId: `b7-${long}-2`, multipart: true, webhook: false },
      ]);
    } finally {
      sent = withoutPrepares(statements.texts());
      statements.restore();
    }
    expect(sent[0]).toMatch(
      /^BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL plan_cache_mode = force_generic_plan; EXECUTE mp_open_\w+\(ARRAY\[[^\]]*\]::text\[\]\); EXECUTE mp_open_\w+\(ARRAY\[[^\]]*\]::uuid\[\]\); EXECUTE mp_open_\w+\('\{[^)]*\); COMMIT$/,
    );
    // Then the early receipt's own transaction: its lock with the BEGIN, the receipts applied, COMMIT.
    expect(sent.slice(1).filter((text) => text.startsWith('BEGIN'))).toHaveLength(1);
    expect(sortById(result.transitions)).toEqual(
      sortById([
        { messageId: early, status: 'sent', webhookUrl: null },
        { messageId: plain, status: 'sent', webhookUrl: null },
        { messageId: long, status: 'sent', webhookUrl: null },
        { messageId: early, status: 'delivered', webhookUrl: null },
      ]),
    );
    expect(await statuses([early, plain, long])).toEqual({ [early]: 'delivered', [plain]: 'sent', [long]: 'sent' });
    const parts = await db.query(`SELECT status, carrier_message_id FROM message_parts WHERE message_id = $1 ORDER BY part_index`, [long]);
    expect(parts).toEqual([
      { status: 'submitted', carrier_message_id: `b7-${long}-1` },
      { status: 'submitted', carrier_message_id: `b7-${long}-2` },
    ]);
    const [{ pending }] = await db.query(`SELECT count(*)::int AS pending FROM carrier_receipts WHERE carrier_message_id = $1 AND applied_at IS NULL`, [
      `b7-${early}`,
    ]);
    expect(pending).toBe(0);
  });

  it('applies a mix of receipts: known parts, one before its part, a duplicate, a non-final stat', async () => {
    const [a] = await send(SHORT, 1, HOOK);
    const [b] = await send(LONG, 1);
    const [c] = await send(SHORT, 1, HOOK);
    await store.recordSubmittedMany([
      { messageId: a, partIndex: 1, carrierMessageId: `b2-${a}` },
      { messageId: b, partIndex: 1, carrierMessageId: `b2-${b}-1` },
      { messageId: b, partIndex: 2, carrierMessageId: `b2-${b}-2` },
    ]);
    const batch = [
      receipt(`b2-${b}-2`, 'ACCEPTD'),
      receipt(`b2-${a}`),
      receipt(`b2-${b}-1`),
      receipt(`b2-${b}-2`, 'UNDELIV'),
      receipt(`b2-${c}`),
      receipt(`b2-${a}`),
    ];
    const applied = await store.applyReceipts(batch);
    expect(applied.transitions).toEqual(
      sortById([
        { messageId: a, status: 'delivered', webhookUrl: HOOK },
        { messageId: b, status: 'undelivered', webhookUrl: null },
      ]),
    );
    expect(applied.outbox.jobs.map((job) => job.jobId).sort()).toEqual([`evt-${a}-delivered`, `refund-${b}`].sort());
    expect(await statuses([a, b, c])).toEqual({ [a]: 'delivered', [b]: 'undelivered', [c]: 'queued' });
    const [stored] = await db.query(`SELECT receipt_stat FROM message_parts WHERE carrier_message_id = $1`, [`b2-${b}-2`]);
    expect(stored.receipt_stat).toBe('UNDELIV');
    // Applied at once, receipts are not kept apart; only the one that overtook its part (c's) is.
    const kept = await db.query(`SELECT carrier_message_id FROM carrier_receipts WHERE carrier_message_id LIKE 'b2-%'`);
    expect(kept).toEqual([{ carrier_message_id: `b2-${c}` }]);
    expect(await store.applyReceipts(batch)).toEqual({ transitions: [], outbox: { ids: [], jobs: [] } });
    expect(await store.applyReceipts([receipt('b2-unknown', 'ENROUTE')])).toEqual({ transitions: [], outbox: { ids: [], jobs: [] } });

    const late = await store.recordSubmittedMany([{ messageId: c, partIndex: 1, carrierMessageId: `b2-${c}` }]);
    expect(late.transitions).toEqual([
      { messageId: c, status: 'sent', webhookUrl: HOOK },
      { messageId: c, status: 'delivered', webhookUrl: HOOK },
    ]);
  });

  it('applies receipts left unapplied, all in one result', async () => {
    const [a] = await send(LONG, 1, HOOK);
    const [b] = await send(SHORT, 1);
    const parts = [`b3-${a}-1`, `b3-${a}-2`, `b3-${b}`];
    await store.recordSubmittedMany([
      { messageId: a, partIndex: 1, carrierMessageId: parts[0] },
      { messageId: a, partIndex: 2, carrierMessageId: parts[1] },
      { messageId: b, partIndex: 1, carrierMessageId: parts[2] },
    ]);
    // As if the receipts had been stored in a way that missed their parts, an hour ago.
    await db.query(
      `INSERT INTO carrier_receipts (carrier_message_id, stat, err, received_at)
       SELECT id, stat, '000', now() - interval '1 hour' FROM unnest($1::text[], $2::text[]) AS r(id, stat)`,
      [parts, ['DELIVRD', 'DELIVRD', 'REJECTD']],
    );
    const result = await store.applyPendingReceipts(30 * 60_000);
    expect(result.transitions).toEqual(
      sortById([
        { messageId: a, status: 'delivered', webhookUrl: HOOK },
        { messageId: b, status: 'rejected', webhookUrl: null },
      ]),
    );
    expect(await statuses([a, b])).toEqual({ [a]: 'delivered', [b]: 'rejected' });
    expect((await store.applyPendingReceipts(30 * 60_000)).transitions).toEqual([]);
  });

  it('loads many messages in the order asked, leaving out those that do not exist', async () => {
    const [a] = await send(SHORT, 1, HOOK);
    const [b] = await send(LONG, 1);
    const missing = '00000000-0000-4000-8000-000000000000';
    const loaded = await store.loadMany([b, missing, a]);
    expect(loaded.map((m) => [m.id, m.webhookUrl, m.parts.map((p) => p.index)])).toEqual([
      [b, null, [1, 2]],
      [a, HOOK, [1]],
    ]);
    expect(loaded[0]).toMatchObject({ status: 'queued', body: LONG, sender: 'Acme' });
    // Exactly the fields of a DispatchMessage, nothing of the row left over.
    expect(loaded[1]).toEqual({
      id: a,
      status: 'queued',
      sender: 'Acme',
      recipient: expect.stringMatching(/^\+\d+$/),
      body: SHORT,
      bodySealed: false,
      route: expect.any(String),
      webhookUrl: HOOK,
      parts: [{ index: 1, status: 'pending', userMessageReference: expect.any(Number), carrierMessageId: null }],
    });
    expect(await store.loadMany([])).toEqual([]);
    expect(await store.load(missing)).toBeNull();
    expect((await store.load(a))?.webhookUrl).toBe(HOOK);
  });

  it('never deadlocks nor settles twice with submits and receipts of the same messages racing', async () => {
    const otherDb = await openTestDataSource('dispatch-batch-other', ACCOUNTS_ENTITIES); // as a second dispatcher process
    const other = new DispatchStore(otherDb, new OutboxRepository(otherDb));
    try {
      for (let round = 0; round < 20; round++) {
        const long = await send(THREE_PARTS, 6, round % 2 === 0 ? HOOK : null);
        const short = await send(SHORT, 2, HOOK);
        const ids = [...long, ...short];
        const part = (id: string, index: number): SubmittedPart => ({ messageId: id, partIndex: index, carrierMessageId: `b4-${id}-${index}` });
        const stat = (p: SubmittedPart) => (p.messageId === long[1] && p.partIndex === 2 ? 'UNDELIV' : p.messageId === short[0] ? 'EXPIRED' : 'DELIVRD');
        const receipts = (parts: SubmittedPart[]) => parts.map((p) => receipt(p.carrierMessageId, stat(p)));
        const [firsts, seconds, thirds] = [ids.map((id) => part(id, 1)), long.map((id) => part(id, 2)).reverse(), long.map((id) => part(id, 3))];
        const results = await Promise.all([
          store.recordSubmittedMany(firsts),
          other.recordSubmittedMany(seconds),
          store.recordSubmittedMany(thirds),
          other.applyReceipts(receipts([...thirds, ...seconds]).reverse()),
          store.applyReceipts(receipts(firsts)),
          other.applyReceipts(receipts([...seconds, ...firsts, ...thirds])), // every receipt again
        ]);
        expectEachSettledOnce(results, await statuses(ids));
        expect(await statuses([long[1], short[0]])).toEqual({ [long[1]]: 'undelivered', [short[0]]: 'expired' });
      }
    } finally {
      await otherDb.destroy();
    }
  });
});

function sortById<T extends { messageId: string }>(transitions: T[]): T[] {
  return [...transitions].sort((x, y) => x.messageId.localeCompare(y.messageId));
}

/** Every message final, with exactly one sent and one settling transition: the state it is in. */
function expectEachSettledOnce(results: DispatchResult[], status: Record<string, string>): void {
  const transitions = results.flatMap((result) => result.transitions);
  for (const [id, state] of Object.entries(status)) {
    expect(['delivered', 'undelivered', 'expired']).toContain(state);
    expect(
      transitions
        .filter((t) => t.messageId === id)
        .map((t) => t.status)
        .sort(),
    ).toEqual(['sent', state].sort());
  }
}

import { admin, referenceFor, startStack, type RunningStack } from '@mp/testing';
import fc from 'fast-check';
import Redis from 'ioredis';
import { Client } from 'pg';
import { send, type FuzzRequest } from './fuzz-http';
import { footprint, footprintChanges, jobsWithoutOutboxRow, outboxRelayed } from './fuzz-ledger';
import { postRequests, readRequests, wrongMethodRequests, type FuzzCompany } from './fuzz-requests';
import type { KnownIds } from './fuzz-routes';

/**
 * Property-based fuzzing of every route of the real gateway (PostgreSQL, Redis; no workers, so
 * whatever is queued stays in Redis to be counted). For each generated request: no 5xx, an answer
 * within the timeout, an `error` text on every 4xx, an answer the API reference describes (status,
 * body, headers), and nothing charged, stored or queued by a 4xx.
 * FUZZ_SEED replays a run; fast-check prints the seed, the path and the shrunk request of a failure.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
/** At least 10,000 cases in all (the floor); FUZZ_RUNS scales it for a longer hunt. */
const SCALE = Number(process.env['FUZZ_RUNS_SCALE'] ?? 1);
const RUNS = { post: 7_000 * SCALE, read: 2_500 * SCALE, wrongMethod: 500 * SCALE };
const WHATSAPP_APP_SECRET = 'dev-only-whatsapp-app-secret';
/** Node's own HTTP parser answers this before any route (headers over 16 KiB): not in the reference. */
const TRANSPORT_STATUSES = new Set([431]);

describe(`the API under fuzzing (seed ${SEED})`, () => {
  let stack: RunningStack;
  let db: Client;
  let redis: Redis;
  let origin: URL;
  let company: FuzzCompany;
  const ids: KnownIds = { appids: [], templateIds: [], messageIds: [], campaignIds: [], verifications: [], dashboardKeyIds: [], dashboardUserIds: [] };
  let cases = 0;
  /** Answers by route and status, printed at the end: what the run reached. */
  const reached = new Map<string, number>();

  beforeAll(async () => {
    process.stdout.write(`api fuzz: seed ${SEED} (set FUZZ_SEED=${SEED} to replay)\n`);
    await admin(['db:migrate']);
    const created = (await admin(['company:create', '--name', 'Fuzz', '--balance', '1000000'])) as Record<string, string>;
    await admin(['company:update', '--company', created['company_id'], '--set', 'otp_rate_limit=1000000']);
    await admin(['app:update', '--appid', created['appid'], '--set', 'otp_prefix_limit_per_hour=1000000']);
    // Wrong secrets for POST /auth/token go to a key of their own: 10 failures block a key's
    // uncached checks for 15 minutes, and the key every other case uses must stay usable.
    const spareKey = (await admin(['key:create', '--company', created['company_id']])) as Record<string, string>;
    const template = (await admin(['template:create', '--appid', created['appid'], '--text', 'Your {{app_name}} code is {{otp}}'])) as Record<string, number>;
    const owner = await admin(['user:create', '--company', created['company_id'], '--email', 'fuzz-owner@example.com', '--password', 'correct horse battery']);
    ids.dashboardUserIds.push(String(owner['user_id']));
    ids.appids.push(created['appid']);
    ids.templateIds.push(template['template_id']);
    stack = await startStack({ apps: ['gateway'] });
    origin = new URL(stack.gatewayUrl);
    const token = await fetch(`${stack.gatewayUrl}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: created['api_key'], api_secret: created['api_secret'] }),
    });
    const accessToken = ((await token.json()) as { access_token: string }).access_token;
    const signIn = await fetch(`${stack.gatewayUrl}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'fuzz-owner@example.com', password: 'correct horse battery' }),
    });
    const dashboardCsrf = ((await signIn.json()) as { csrf_token: string }).csrf_token;
    const dashboardToken = /^mp_session=([^;]*)/.exec(signIn.headers.getSetCookie()[0] ?? '')?.[1] ?? '';
    company = {
      apiKey: created['api_key'],
      apiSecret: created['api_secret'],
      accessToken,
      spareApiKey: spareKey['api_key'],
      whatsappAppSecret: WHATSAPP_APP_SECRET,
      dashboardToken,
      dashboardCsrf,
    };
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
  });
  afterAll(async () => {
    const table = [...reached].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `  ${key}: ${n}`);
    process.stdout.write(`api fuzz: ${cases} cases, seed ${SEED}\n${table.join('\n')}\n`);
    redis?.disconnect();
    await db?.end();
    await stack?.stop();
  });

  /** One case: the request, and what it answered and did. */
  async function check(request: FuzzRequest): Promise<void> {
    cases++;
    const before = await footprint(db);
    const answers = await send(origin, request);
    const changes = footprintChanges(before, await footprint(db), request.path.endsWith('/otp/verify'));
    const route = `${request.method} ${request.path.split('?')[0].replace(/\/[0-9a-f-]{36}/g, '/{id}')}`;
    for (const { status } of answers)
      reached.set(`${route.length > 60 ? 'odd paths' : route} ${status}`, (reached.get(`${route.length > 60 ? 'odd paths' : route} ${status}`) ?? 0) + 1);
    for (const answer of answers) {
      if (answer.status >= 500) throw new Error(`answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      const error = (answer.body as { error?: unknown } | undefined)?.error;
      if (answer.status >= 400 && request.method !== 'HEAD' && (typeof error !== 'string' || error === '')) {
        throw new Error(`answered ${answer.status} without an error text: ${JSON.stringify(answer.body)}`);
      }
    }
    if (answers.length === 0 && request.framing !== 'length-too-long') throw new Error('the server closed the connection without an answer');
    if (request.framing === 'content-length' || request.framing === 'chunked') {
      const [answer] = answers;
      if (!TRANSPORT_STATUSES.has(answer.status)) {
        const { problems } = referenceFor(request.path).validator.checkAnswer({
          method: request.method,
          path: request.path,
          status: answer.status,
          headers: answer.headers,
          body: answer.text,
        });
        if (problems.length > 0) throw new Error(`an answer the API reference does not describe:\n${problems.join('\n')}`);
      }
    }
    const succeeded = answers.some((answer) => answer.status < 400);
    if (!succeeded && changes.length > 0) throw new Error(`answered ${answers.map((a) => a.status).join(', ')} but changed ${changes.join('; ')}`);
    if (succeeded) remember(request, answers[0].body);
  }

  /** Ids of what a 2xx made, so later cases reach past "not found". */
  function remember(request: FuzzRequest, body: unknown): void {
    const answer = body as { data?: Record<string, unknown>; verification_id?: string } | undefined;
    const data = answer?.data ?? {};
    if (typeof data['message_id'] === 'string') ids.messageIds.push(data['message_id']);
    for (const message of Array.isArray(data['messages']) ? (data['messages'] as { message_id?: unknown }[]) : []) {
      if (typeof message.message_id === 'string') ids.messageIds.push(message.message_id);
    }
    if (typeof data['campaign_id'] === 'string') ids.campaignIds.push(data['campaign_id']);
    const created = body as { id?: unknown; api_secret?: unknown } | undefined;
    if (request.path.startsWith('/dashboard/api/keys') && typeof created?.api_secret === 'string' && typeof created.id === 'string')
      ids.dashboardKeyIds.push(created.id);
    if (request.path.endsWith('/otp/send') && typeof answer?.verification_id === 'string') {
      const sent = parsedBody(request.body);
      const code = [sent['otp_code'], sent['code']].find((value): value is string => typeof value === 'string' && value.trim() !== '');
      ids.verifications.push({ id: answer.verification_id, code: code?.trim() ?? '000000' });
    }
  }

  it('answers every generated POST body without a 5xx, an error-less 4xx, or a 4xx that charged or queued', async () => {
    await fc.assert(fc.asyncProperty(postRequests(company, ids), check), { seed: SEED, numRuns: RUNS.post, verbose: 0 });
  }, 1_800_000);

  it('answers every generated path, query string and credential of the read routes likewise', async () => {
    await fc.assert(fc.asyncProperty(readRequests(company, ids), check), { seed: SEED + 1, numRuns: RUNS.read, verbose: 0 });
  }, 1_800_000);

  it('answers a method a route does not have with a 4xx and its error text', async () => {
    await fc.assert(fc.asyncProperty(wrongMethodRequests(company), check), { seed: SEED + 2, numRuns: RUNS.wrongMethod, verbose: 0 });
  }, 600_000);

  it('queued nothing that no 2xx committed', async () => {
    expect(cases).toBeGreaterThanOrEqual(10_000 * SCALE);
    await outboxRelayed(db);
    expect(await jobsWithoutOutboxRow(db, redis, process.env['QUEUE_PREFIX'] ?? '')).toEqual([]);
  });
});

function parsedBody(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

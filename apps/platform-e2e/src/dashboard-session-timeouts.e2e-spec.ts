import { admin, startStack, type RunningStack } from '@mp/testing';
import { createCompany } from './support/api-client';
import { createUser, DashboardClient, uniqueEmail } from './support/dashboard-client';

/** Idle 3 s (0.05 minutes), at most 9 s in all (0.0025 hours): the timeouts, shortened for the test. */
const IDLE_MS = 3_000;
const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

describe('dashboard session timeouts', () => {
  let stack: RunningStack;
  let email: string;
  const browser = () => new DashboardClient(() => stack.gatewayUrl);

  beforeAll(async () => {
    await admin(['db:migrate']);
    const company = await createCompany('Timeouts', '1');
    email = uniqueEmail('timeouts');
    await createUser(company.company_id, email);
    stack = await startStack({ apps: ['gateway'], env: { DASHBOARD_SESSION_IDLE_MINUTES: '0.05', DASHBOARD_SESSION_MAX_HOURS: '0.0025' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('ends a session left idle for the idle timeout', async () => {
    const client = browser();
    expect((await client.signIn(email)).status).toBe(200);
    expect((await client.get('/session')).status).toBe(200);
    await sleep(IDLE_MS + 500);
    expect(await client.get('/keys')).toMatchObject({ status: 401, body: { error: 'Not signed in' } });
    const state = await client.get('/session');
    expect(state).toMatchObject({ status: 200, body: { user: null, csrf_token: null } });
    expect(state.headers.get('set-cookie')).toMatch(/^mp_session=;.*Max-Age=0/);
  });

  it('keeps a busy session past the idle timeout, and ends it at the absolute timeout all the same', async () => {
    const client = browser();
    const signIn = await client.signIn(email);
    expect(signIn.headers.get('set-cookie')).toMatch(/Max-Age=9\b/);
    const statuses: number[] = [];
    for (let i = 0; i < 15 && statuses.at(-1) !== 401; i++) {
      await sleep(1_000);
      statuses.push((await client.get('/keys')).status);
    }
    const alive = statuses.indexOf(401);
    // Alive for longer than the idle timeout (a request a second), then ended by the absolute one.
    expect(alive).toBeGreaterThan(IDLE_MS / 1_000 + 1);
    expect(statuses.slice(0, alive).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(401);
  });
});

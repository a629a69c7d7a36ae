// An end-to-end setup file (jest.config.js, setupFilesAfterEnv): every answer of a gateway that
// startStack runs, as the specs get it through fetch, and every webhook a test receiver gets, is
// checked against its reference: docs/dashboard-api.json for the dashboard API (/dashboard/api/),
// docs/openapi.json for everything else. An answer the reference does not describe (an
// undocumented status, field, type or header) fails the test that made it, so neither can lie.
import { isRunningGateway, onWebhookReceived } from '../test-traffic';
import { referenceFor } from './references';
/** How long an answer's body is waited for after its test; one never read by then is left unchecked. */
const READ_TIMEOUT_MS = 15_000;

const violations: string[] = [];
const reading = new Set<Promise<void>>();

const originalFetch = globalThis.fetch;

globalThis.fetch = async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await originalFetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (isRunningGateway(url.origin)) {
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const copy = response.clone();
    const read = check(method, `${url.pathname}${url.search}`, copy).finally(() => reading.delete(read));
    reading.add(read);
  }
  return response;
};

async function check(method: string, path: string, response: Response): Promise<void> {
  let body: string;
  try {
    body = await withTimeout(response.text());
  } catch {
    return; // aborted or never read: nothing to judge
  }
  const { problems } = referenceFor(path).validator.checkAnswer({ method, path, status: response.status, headers: response.headers, body });
  violations.push(...problems);
}

onWebhookReceived((webhook) => violations.push(...referenceFor('/').validator.checkWebhook({ headers: webhook.headers, body: webhook.body }).problems));

async function flush(): Promise<void> {
  await Promise.allSettled([...reading]);
  if (violations.length === 0) return;
  const found = violations.splice(0);
  throw new Error(`${found.length} answer(s) the API references (docs/openapi.json, docs/dashboard-api.json) do not describe:\n\n${found.join('\n\n')}`);
}

afterEach(flush);
afterAll(flush);

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), READ_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Runs the compiled SMSC simulator (tools/smsc-simulator) as a process of its own, beside a stack
// whose dev-stack runs another: a carrier for a route with an SMSC of its own. `npm run build` first.
import type { ChildProcess } from 'node:child_process';
import { spawnCompiled } from './compiled-process';
import { freePort } from './stack';

export interface HandsetMessage {
  message_id: string;
  from: string;
  to: string;
  text: string;
  parts: number;
}

export interface SmscSimulatorProcess {
  /** Where it takes SMPP binds (127.0.0.1). */
  readonly smppPort: number;
  /** Its inspection API, http://127.0.0.1:<port>. */
  readonly httpUrl: string;
  /** What "the phone" of this SMSC received for a number, oldest first. */
  messages(to: string): Promise<HandsetMessage[]>;
  /** SIGTERM, then SIGKILL after 10 s; resolves once it has exited. */
  stop(): Promise<void>;
  logs(): string;
}

const MAIN = 'dist/out/tools/smsc-simulator/src/main.js';
const READY_TIMEOUT_MS = 30_000;
/** Ends the simulator when the test process that started it goes away without stopping it. */
const LIFELINE = `data:text/javascript,process.on('disconnect',()=>process.exit(1))`;

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveExit) => child.once('exit', () => resolveExit()));
}

/** Starts it on free ports with `env` over the defaults, and resolves once its inspection API answers. */
export async function startSmscSimulatorProcess(env: Record<string, string> = {}): Promise<SmscSimulatorProcess> {
  const smppPort = await freePort();
  const httpPort = await freePort();
  const { child, logs } = spawnCompiled(
    MAIN,
    { PATH: process.env['PATH'], LOG_LEVEL: 'warn', SMSC_HOST: '127.0.0.1', SMSC_PORT: String(smppPort), SMSC_HTTP_PORT: String(httpPort), ...env },
    ['--import', LIFELINE],
  );
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited(child);
    clearTimeout(timer);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the SMSC simulator exited before it answered:\n${logs()}`);
    const answered = await fetch(`${httpUrl}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the SMSC simulator did not answer within ${READY_TIMEOUT_MS / 1000} s:\n${logs()}`);
    }
    await new Promise((wake) => setTimeout(wake, 200));
  }
  const messages = async (to: string): Promise<HandsetMessage[]> =>
    (await (await fetch(`${httpUrl}/messages?to=${encodeURIComponent(to)}`)).json()) as HandsetMessage[];
  return { smppPort, httpUrl, messages, stop, logs };
}

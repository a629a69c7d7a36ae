// What the throwaway services of the tests (redis-cluster.ts, pgbouncer.ts) share: waiting for
// one to answer, and stopping one.
import type { ChildProcess } from 'node:child_process';

const READY_TIMEOUT_MS = 30_000;

/** Resolves once `check` answers true; throws after timeoutMs, naming `what`. */
export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((wake) => setTimeout(wake, 100));
  }
  throw new Error(`${what} was not ready within ${timeoutMs / 1000} s`);
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

import { AsyncLocalStorage } from 'node:async_hooks';

/** Ids that every log line written while serving one request or one job carries. */
export interface LogContext {
  requestId?: string;
  jobId?: string;
  queue?: string;
}

/**
 * Made only when enabled: once an AsyncLocalStorage has run, Node 20 calls a hook on every
 * promise of the process (docs/decisions/0017-log-context-off-by-default.md).
 */
let storage: AsyncLocalStorage<LogContext> | undefined;

/** Turns the context on for this process (LOG_CONTEXT=on); until then it is off. */
export function enableLogContext(): void {
  storage ??= new AsyncLocalStorage<LogContext>();
}

export function logContextEnabled(): boolean {
  return storage !== undefined;
}

/** Runs work with the context, when it is on; otherwise just runs it. */
export function runWithLogContext<T>(context: LogContext, work: () => T): T {
  return storage ? storage.run(context, work) : work();
}

export function currentLogContext(): LogContext {
  return storage?.getStore() ?? {};
}

/** Runs work in the async context captured when it was made (the log context and the trace's). */
export type CapturedContext = <R>(work: () => R) => R;

/**
 * While the context is on, the context of the caller, for work it hands to later (a group
 * commit's flush): that work's log lines, spans and queued jobs then belong to it. Undefined,
 * at no cost, while it is off.
 */
export function captureContext(): CapturedContext | undefined {
  return storage ? (AsyncLocalStorage.snapshot() as CapturedContext) : undefined;
}

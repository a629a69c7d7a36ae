import { AsyncLocalStorage } from 'node:async_hooks';

/** Ids that every log line written while serving one request or one job carries. */
export interface LogContext {
  requestId?: string;
  jobId?: string;
  queue?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

export function runWithLogContext<T>(context: LogContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentLogContext(): LogContext {
  return storage.getStore() ?? {};
}

import pino, { Logger } from 'pino';
import { currentLogContext, enableLogContext } from './log-context';
import { activeTraceIds, tracingOn } from './tracing/spans';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** Name of the process: gateway, otp, admin, ... */
  app: string;
  level: string;
  /** File descriptor to write to: 1 for services, 2 for command-line tools whose stdout is data. */
  fd?: 1 | 2;
  /**
   * LOG_CONTEXT=on: tag every line with the current request or job id (see log-context.ts). On
   * whenever tracing is (startTracing, called first), and the lines then name their traceId/spanId.
   */
  context?: boolean;
}

/** Paths whose values never reach a log line, whatever logs them. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-secret"]',
  'api_secret',
  'apiSecret',
  'secret',
  'password',
  'otp_code',
  'code',
  '*.api_secret',
  '*.otp_code',
  '*.code',
];

/** JSON logs on one line each, tagged with the app (and, with `context`, the current request or job id). */
export function createLogger({ app, level, fd = 1, context = false }: LoggerOptions): Logger {
  const traced = tracingOn();
  if (context || traced) enableLogContext();
  return pino(
    {
      level,
      base: { app, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      ...(traced ? { mixin: () => ({ ...currentLogContext(), ...activeTraceIds() }) } : context ? { mixin: () => ({ ...currentLogContext() }) } : {}),
    },
    pino.destination({ fd, sync: fd === 2 }),
  );
}

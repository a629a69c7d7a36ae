import { keysMatching } from './platform-status';
import type { RedisConnection } from './redis-connection';

/**
 * Each sms-dispatcher's view of its carriers' health, published to Redis for `admin carrier:list`
 * and the operators' API, as its binds are (docs/decisions/0060-carrier-health-in-redis.md): raw
 * counters over its window, so that a reader sums them across dispatchers before computing rates.
 */

/** What one dispatcher counted of one carrier over its window (CarrierCounters of @mp/routing-domain). */
export interface CarrierHealthCounters {
  submits: number;
  throttled: number;
  errors: number;
  delivered: number;
  undelivered: number;
  timedReceipts: number;
  receiptLatencyMsTotal: number;
}

export interface CarrierHealthReport {
  /** The dispatcher process (host:pid). */
  dispatcher: string;
  /** The carrier's name. */
  carrier: string;
  /** The window the counters cover, in ms. */
  windowMs: number;
  counters: CarrierHealthCounters;
  /** This dispatcher judges the carrier degraded (it gets probe traffic only from it). */
  degraded: boolean;
  /** Why the flag is as it is. */
  reason: string;
}

/** As BIND_REPORT_TTL_SECONDS: a dead dispatcher's counts drop out within this time. */
export const CARRIER_HEALTH_TTL_SECONDS = 30;
export const CARRIER_HEALTH_EVERY_MS = 5_000;

const COUNTER_NAMES: readonly (keyof CarrierHealthCounters)[] = [
  'submits',
  'throttled',
  'errors',
  'delivered',
  'undelivered',
  'timedReceipts',
  'receiptLatencyMsTotal',
];

const healthKey = (prefix: string, dispatcher: string) => `${prefix}:status:carrier-health:${dispatcher}`;

/** Writes this dispatcher's carriers' health (replacing its last report), to live CARRIER_HEALTH_TTL_SECONDS. */
export async function publishCarrierHealth(
  redis: RedisConnection,
  prefix: string,
  dispatcher: string,
  carriers: readonly Omit<CarrierHealthReport, 'dispatcher'>[],
): Promise<void> {
  const report: CarrierHealthReport[] = carriers.map((carrier) => ({ dispatcher, ...carrier }));
  await redis.set(healthKey(prefix, dispatcher), JSON.stringify(report), 'EX', CARRIER_HEALTH_TTL_SECONDS);
}

/** Removes this dispatcher's report (at shutdown). */
export async function withdrawCarrierHealth(redis: RedisConnection, prefix: string, dispatcher: string): Promise<void> {
  await redis.del(healthKey(prefix, dispatcher));
}

/** Every live dispatcher's report of every carrier, by carrier and dispatcher. Entries not of the right shape are skipped. */
export async function readCarrierHealth(redis: RedisConnection, prefix: string): Promise<CarrierHealthReport[]> {
  const keys = await keysMatching(redis, healthKey(prefix, '*'));
  if (keys.length === 0) return [];
  const reports = await redis.mget(...keys);
  return reports.flatMap((text) => parseCarrierHealth(text)).sort((a, b) => a.carrier.localeCompare(b.carrier) || a.dispatcher.localeCompare(b.dispatcher));
}

export function parseCarrierHealth(text: string | null): CarrierHealthReport[] {
  if (text === null) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter(isHealthReport) : [];
  } catch {
    return [];
  }
}

function isHealthReport(value: unknown): value is CarrierHealthReport {
  const report = value as Partial<CarrierHealthReport> | null;
  if (typeof report !== 'object' || report === null) return false;
  const counters = report.counters as Record<string, unknown> | undefined;
  return (
    typeof report.dispatcher === 'string' &&
    typeof report.carrier === 'string' &&
    typeof report.windowMs === 'number' &&
    report.windowMs > 0 &&
    typeof report.degraded === 'boolean' &&
    typeof report.reason === 'string' &&
    typeof counters === 'object' &&
    counters !== null &&
    COUNTER_NAMES.every((name) => typeof counters[name] === 'number' && Number.isFinite(counters[name]) && (counters[name] as number) >= 0)
  );
}

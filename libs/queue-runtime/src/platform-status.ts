import { ALL_QUEUES, type QueueName } from '@mp/queue-contracts';
import type { Queue } from 'bullmq';
import { Cluster, type Redis } from 'ioredis';
import type { RedisConnection } from './redis-connection';

/**
 * What the operators' overview reads from Redis: the depth of every queue (BullMQ's own counts)
 * and the SMSC binds each sms-dispatcher publishes (docs/decisions/0038-smsc-bind-state-in-redis.md).
 */

/** One SMSC bind as its dispatcher last published it. */
export interface SmscBindReport {
  /** The dispatcher process (host:pid) that holds the bind. */
  dispatcher: string;
  /** The route whose parts it carries (`default`: the SMSC of routes without one of their own). */
  route: string;
  /** Its number within the route, from 1 (SMPP_BINDS per SMSC). */
  bind: number;
  /** The SMSC, host:port. */
  target: string;
  state: 'idle' | 'connecting' | 'bound' | 'closing' | 'closed';
  /** When it entered that state (ISO 8601). */
  since: string;
}

export interface QueueDepth {
  queue: QueueName;
  /** Waiting to start: plain waiting and prioritized jobs. */
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/**
 * How long a dispatcher's report lives without being written again: it rewrites it every
 * BIND_REPORT_EVERY_MS and at each change of a bind, so a dispatcher that died drops out of the
 * overview within this time.
 */
export const BIND_REPORT_TTL_SECONDS = 30;
export const BIND_REPORT_EVERY_MS = 10_000;

const bindReportKey = (prefix: string, dispatcher: string) => `${prefix}:status:smsc-binds:${dispatcher}`;

/** Writes this dispatcher's binds (replacing its last report), to live BIND_REPORT_TTL_SECONDS. */
export async function publishBindStates(
  redis: RedisConnection,
  prefix: string,
  dispatcher: string,
  binds: readonly Omit<SmscBindReport, 'dispatcher'>[],
): Promise<void> {
  const report: SmscBindReport[] = binds.map((bind) => ({ dispatcher, ...bind }));
  await redis.set(bindReportKey(prefix, dispatcher), JSON.stringify(report), 'EX', BIND_REPORT_TTL_SECONDS);
}

/** Removes this dispatcher's report (at shutdown, so its closed binds are not shown for the TTL). */
export async function withdrawBindStates(redis: RedisConnection, prefix: string, dispatcher: string): Promise<void> {
  await redis.del(bindReportKey(prefix, dispatcher));
}

/** Every live dispatcher's binds, by route, dispatcher and bind number. A report that is not JSON of the right shape is skipped. */
export async function readBindStates(redis: RedisConnection, prefix: string): Promise<SmscBindReport[]> {
  const keys = await keysMatching(redis, bindReportKey(prefix, '*'));
  if (keys.length === 0) return [];
  const reports = await redis.mget(...keys);
  return reports
    .flatMap((text) => parseReport(text))
    .sort((a, b) => a.route.localeCompare(b.route) || a.dispatcher.localeCompare(b.dispatcher) || a.bind - b.bind);
}

/** The keys matching a SCAN pattern, on a single Redis or every master of a cluster. */
export async function keysMatching(redis: RedisConnection, pattern: string): Promise<string[]> {
  // A cluster's SCAN sees one node's keys: scan each master (the prefix's hash tag puts them all on one).
  const servers = redis instanceof Cluster ? redis.nodes('master') : [redis];
  return (await Promise.all(servers.map((server) => scanKeys(server, pattern)))).flat();
}

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 100);
    keys.push(...found);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

export function parseReport(text: string | null): SmscBindReport[] {
  if (text === null) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter(isBindReport) : [];
  } catch {
    return [];
  }
}

function isBindReport(value: unknown): value is SmscBindReport {
  const report = value as Partial<SmscBindReport> | null;
  return (
    typeof report === 'object' &&
    report !== null &&
    typeof report.dispatcher === 'string' &&
    typeof report.route === 'string' &&
    typeof report.bind === 'number' &&
    typeof report.target === 'string' &&
    typeof report.state === 'string' &&
    typeof report.since === 'string'
  );
}

/** The depth of every queue of the platform, in ALL_QUEUES' order; `queueOf` gives the BullMQ queue (QueueProducer.queue). */
export async function readQueueDepths(queueOf: (name: QueueName) => Queue): Promise<QueueDepth[]> {
  return Promise.all(
    ALL_QUEUES.map(async (name) => {
      const counts = await queueOf(name).getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
      return {
        queue: name,
        waiting: (counts['waiting'] ?? 0) + (counts['prioritized'] ?? 0),
        active: counts['active'] ?? 0,
        delayed: counts['delayed'] ?? 0,
        failed: counts['failed'] ?? 0,
      };
    }),
  );
}

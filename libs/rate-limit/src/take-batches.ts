import { GroupCommit } from '@mp/batching';
import { runScript, SCRIPTS, type RedisClient } from './scripts';

/** One window of a take: its sorted set, its length and its limit. */
export interface TakeWindow {
  key: string;
  windowMs: number;
  limit: number;
}

/** What the script answered for one take: `index` (from 1) names the full window when refused. */
export interface TakeOutcome {
  allowed: boolean;
  index: number;
  used: number;
  wait: number;
}

interface PendingTake {
  slot: string;
  windows: readonly TakeWindow[];
}

/** Takes one script call decides at most: its keys and arguments stay small. */
const MAX_TAKES_PER_CALL = 100;

/**
 * The takes of one Redis connection, sent together (a GroupCommit): those asked for in the same
 * I/O round go in one script call, and those asked for while a call is on its way go in the
 * next one, so at hundreds of OTPs a second a round trip to Redis (and the wake-up of Redis and
 * of the gateway it costs) serves many sends instead of one. Each take stays all-or-none; the
 * script decides them in the order they were asked for. A failed call is not retried take by
 * take: it may have taken slots before its answer was lost.
 */
export class TakeBatches {
  private readonly batches: GroupCommit<PendingTake, TakeOutcome>;

  constructor(redis: RedisClient) {
    this.batches = new GroupCommit(
      async (takes) => {
        const answers = await runScript(redis, SCRIPTS.take, ...scriptInput(takes));
        return takes.map((_, i) => ({ ok: true, value: outcomeAt(answers, i) }));
      },
      { maxBatch: MAX_TAKES_PER_CALL, isolateFailures: false },
    );
  }

  take(slot: string, windows: readonly TakeWindow[]): Promise<TakeOutcome> {
    return this.batches.submit({ slot, windows });
  }
}

/** The script's KEYS and ARGV for these takes (see TAKE_SCRIPT). */
export function scriptInput(takes: readonly PendingTake[]): [string[], (string | number)[]] {
  const keys: string[] = [];
  const args: (string | number)[] = [takes.length];
  for (const take of takes) {
    args.push(take.slot, take.windows.length);
    for (const window of take.windows) {
      keys.push(window.key);
      args.push(window.windowMs, window.limit);
    }
  }
  return [keys, args];
}

function outcomeAt(answers: readonly number[], i: number): TakeOutcome {
  const [allowed, index, used, wait] = answers.slice(4 * i, 4 * i + 4);
  return { allowed: allowed === 1, index, used, wait };
}

const batchesByConnection = new WeakMap<RedisClient, TakeBatches>();

/** The TakeBatches of this connection (one per connection, shared by every limiter on it). */
export function takeBatchesOn(redis: RedisClient): TakeBatches {
  let batches = batchesByConnection.get(redis);
  if (!batches) batchesByConnection.set(redis, (batches = new TakeBatches(redis)));
  return batches;
}

import type { Cluster, Redis } from 'ioredis';
import { createHash } from 'node:crypto';

// Scripts, so that counting and taking a slot are one atomic step however many gateways ask at
// once; Redis's own clock, so gateways with skewed clocks agree.
//
// TAKE: one or more takes, decided in turn. ARGV[1] is how many; then, for each take, its slot
// id, its number of windows n, and each window's ms and limit; its n windows' sorted sets are the
// next n KEYS. A take gets a slot in every one of its windows or, when one is full, in none.
// Answers four numbers per take: { 1, 0, used in its first window, 0 } or { 0, index of the full
// window (from 1), its used, ms until a slot frees }.
export const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
local k = 0
local a = 2
for n = 1, tonumber(ARGV[1]) do
  local slot = ARGV[a]
  local count = tonumber(ARGV[a + 1])
  a = a + 2
  local refused = nil
  local first = 0
  for i = 1, count do
    local key = KEYS[k + i]
    local window = tonumber(ARGV[a + 2 * i - 2])
    local limit = tonumber(ARGV[a + 2 * i - 1])
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
    local used = redis.call('ZCARD', key)
    if used >= limit then
      local freeing = redis.call('ZRANGE', key, used - limit, used - limit, 'WITHSCORES')
      local wait = window
      if freeing[2] then wait = tonumber(freeing[2]) + window - now end
      refused = { 0, i, used, wait }
      break
    end
    if i == 1 then first = used end
  end
  if refused == nil then
    for i = 1, count do
      redis.call('ZADD', KEYS[k + i], now, slot)
      redis.call('PEXPIRE', KEYS[k + i], tonumber(ARGV[a + 2 * i - 2]))
    end
    refused = { 1, 0, first + 1, 0 }
  end
  for j = 1, 4 do out[#out + 1] = refused[j] end
  k = k + count
  a = a + 2 * count
end
return out
`;

// USAGE: KEYS[1] a window's sorted set; ARGV[1] its ms. Answers { used, when its oldest event
// leaves the window, or -1 }.
export const USAGE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = redis.call('ZCARD', KEYS[1])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = -1
if oldest[2] then reset = tonumber(oldest[2]) + window end
return { used, reset }
`;

// FULL: KEYS are windows' sorted sets; ARGV each window's ms and limit, in turn. Takes nothing.
// Answers { index of the first full window (from 1), ms until a slot frees } or { 0, 0 }.
export const FULL_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #KEYS do
  local window = tonumber(ARGV[2 * i - 1])
  local limit = tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local used = redis.call('ZCARD', KEYS[i])
  if used >= limit then
    local freeing = redis.call('ZRANGE', KEYS[i], used - limit, used - limit, 'WITHSCORES')
    local wait = window
    if freeing[2] then wait = tonumber(freeing[2]) + window - now end
    return { i, wait }
  end
end
return { 0, 0 }
`;

/** One Redis server or a Redis Cluster: a script's keys must then share a slot (give them one hash tag). */
export type RedisClient = Redis | Cluster;

const sha1 = (script: string): string => createHash('sha1').update(script).digest('hex');
export const SCRIPTS = {
  take: { text: TAKE_SCRIPT, sha: sha1(TAKE_SCRIPT) },
  usage: { text: USAGE_SCRIPT, sha: sha1(USAGE_SCRIPT) },
  full: { text: FULL_SCRIPT, sha: sha1(FULL_SCRIPT) },
};

/**
 * A script by its SHA-1 (EVALSHA), sent whole only when this Redis does not have it yet: sent
 * whole on every call, it was most of the bytes a gateway wrote to Redis per OTP, and Redis
 * hashed it again each time.
 */
export async function runScript(redis: RedisClient, script: { text: string; sha: string }, keys: string[], args: (string | number)[]): Promise<number[]> {
  try {
    return (await redis.evalsha(script.sha, keys.length, ...keys, ...args)) as number[];
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return (await redis.eval(script.text, keys.length, ...keys, ...args)) as number[];
  }
}

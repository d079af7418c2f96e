import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { retryAfter, type ReserveResult, type WindowLog } from './window-log.ts';

// One atomic step per reservation: drop what left the window, count, and add
// this write only if the quota allows, so concurrent instances never overshoot.
const RESERVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, count, oldest[2]}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, count + 1, ARGV[1]}
`;

type ReserveScript = (key: string, now: number, windowMs: number, quota: number, member: string) => Promise<[number, number, string]>;

/** The log in Redis, shared by every instance: a sorted set of write times per key. */
export class RedisWindowLog implements WindowLog {
  readonly #redis: Redis;
  readonly #now: () => number;
  readonly #prefix: string;
  readonly #reserve: ReserveScript;

  constructor(redis: Redis, now: () => number, prefix = 'quota:') {
    this.#redis = redis;
    this.#now = now;
    this.#prefix = prefix;
    // Registered once: ioredis then sends the script's hash (EVALSHA), not its text, with every write.
    redis.defineCommand('reserveQuotaSlot', { numberOfKeys: 1, lua: RESERVE });
    const commands = redis as unknown as { reserveQuotaSlot: ReserveScript };
    this.#reserve = commands.reserveQuotaSlot.bind(redis);
  }

  async reserve(scope: string, reader: string, quota: number, windowSeconds: number): Promise<ReserveResult> {
    const now = this.#now();
    const windowMs = windowSeconds * 1000;
    const member = `${now}:${randomBytes(6).toString('base64url')}`;
    const redisKey = `${this.#prefix}${scope}:${reader}`;
    const [admitted, count, oldest] = await this.#reserve(redisKey, now, windowMs, quota, member);
    if (admitted !== 1) return { admitted: false, retryAfterSeconds: retryAfter(Number(oldest), windowSeconds, now) };
    return {
      admitted: true,
      reservation: {
        remaining: quota - count,
        release: async () => {
          await this.#redis.zrem(redisKey, member);
        },
      },
    };
  }
}

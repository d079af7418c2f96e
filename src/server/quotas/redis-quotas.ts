// Quotas in Redis, in a module of their own: the server imports it (and the
// Redis client) only when REDIS_URL is set.
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { Ban } from './ban.ts';
import { COMMENT_BURST_BAN } from './limits.ts';
import { createQuotas, type Quotas } from './quotas.ts';
import { RedisWindowLog } from './redis-window-log.ts';

/** How long a write waits for Redis before it answers 503. */
const REDIS_TIMEOUT_MS = 1500;

/** Quotas in Redis, shared by every instance. Redis unreachable makes writes fail (503), never fall back to memory. */
export function redisQuotas(url: string, now: () => number = Date.now): Quotas {
  const redis = new Redis(url, {
    commandTimeout: REDIS_TIMEOUT_MS,
    connectTimeout: REDIS_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    // Keep trying to reconnect in the background, a second apart at most.
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  // Errors reach each command; an unhandled 'error' event would crash the process.
  redis.on('error', () => undefined);
  const ban = new Ban(
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: 'ban',
      points: 1,
      duration: COMMENT_BURST_BAN.banSeconds,
      rejectIfRedisNotReady: true,
    }),
    COMMENT_BURST_BAN.banSeconds,
  );
  return createQuotas(
    new RedisWindowLog(redis, now),
    ban,
    { spend: async (key, seconds) => (await redis.set(`spent:${key}`, '1', 'EX', Math.ceil(seconds), 'NX')) === 'OK' },
    async () => {
      redis.disconnect();
      return Promise.resolve();
    },
    async () => {
      await redis.ping();
    },
  );
}

import { RateLimiterMemory } from 'rate-limiter-flexible';
import { Ban } from './ban.ts';
import { COMMENT_BURST_BAN, quotaOf, type QuotaName } from './limits.ts';
import { MemorySpentKeys, type SpentKeys } from './spent-keys.ts';
import { MemoryWindowLog, type ReserveResult, type WindowLog } from './window-log.ts';

/** The quotas could not be checked (Redis unreachable): the write must answer 503, never pass unchecked. */
export class QuotasUnavailable extends Error {}

/** The quotas and the ban of every write, for one reader hash at a time. */
export interface Quotas {
  /** Seconds left of the reader's ban, 0 when not banned. */
  banRemaining(reader: string): Promise<number>;
  /** Takes one write from the reader's quota, or says when one frees up. */
  reserve(name: QuotaName, reader: string): Promise<ReserveResult>;
  /** Counts a stored comment toward the burst ban, and bans the reader at the limit. */
  countComment(reader: string): Promise<void>;
  /** True the first time `key` is spent within `seconds` (SpentKeys), false after. */
  spendOnce(key: string, seconds: number): Promise<boolean>;
  /** Resolves when the counts can be reached now (always, in memory; Redis answering PING), rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

async function unavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new QuotasUnavailable(error instanceof Error ? error.message : String(error));
  }
}

/** The quotas of every write over a window log and a ban, wherever those two keep their counts. */
export function createQuotas(
  log: WindowLog,
  ban: Ban,
  spent: SpentKeys,
  close: () => Promise<void>,
  ping: () => Promise<void> = () => Promise.resolve(),
): Quotas {
  return {
    ping,
    banRemaining: (reader) => unavailable(() => ban.remainingSeconds(reader)),
    reserve: (name, reader) => {
      const { quota, windowSeconds } = quotaOf(name);
      return unavailable(() => log.reserve(name, reader, quota, windowSeconds));
    },
    countComment: (reader) =>
      unavailable(async () => {
        const { comments, windowSeconds } = COMMENT_BURST_BAN;
        const result = await log.reserve('comment-burst', reader, comments, windowSeconds);
        if (!result.admitted || result.reservation.remaining === 0) await ban.impose(reader);
      }),
    spendOnce: (key, seconds) => unavailable(() => spent.spend(key, seconds)),
    close,
  };
}

/** Quotas in this process's memory (one instance). */
export function memoryQuotas(now: () => number = Date.now): Quotas {
  const log = new MemoryWindowLog(now);
  const spent = new MemorySpentKeys(now);
  const sweeper = setInterval(() => {
    log.sweep();
    spent.sweep();
  }, 60_000);
  sweeper.unref();
  const ban = new Ban(
    new RateLimiterMemory({ keyPrefix: 'ban', points: 1, duration: COMMENT_BURST_BAN.banSeconds }),
    COMMENT_BURST_BAN.banSeconds,
  );
  return createQuotas(log, ban, spent, () => {
    clearInterval(sweeper);
    return Promise.resolve();
  });
}

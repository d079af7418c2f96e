import type { z } from 'zod';
import type { QuotaName } from '../quotas/limits.ts';
import type { PrepareWrite } from '../writes/pipeline.ts';
import { writeHandler } from '../writes/write-handlers.ts';
import type { OperationDefinition } from './definition.ts';

/** A write's registry entry as it is written: everything but its handler, with what the pipeline runs. */
type WriteEntry<Input> = Omit<OperationDefinition, 'body' | 'quota' | 'handle'> & {
  body: z.ZodObject & z.ZodType<Input>;
  quota: QuotaName;
  /** Whether the write can wait for the owner's approval under MODERATION (src/server/writes/pipeline.ts). */
  holdable?: true;
  prepare: PrepareWrite<Input>;
};

/**
 * A write's registry entry: its body schema, quota, captcha rule and the
 * function that prepares it are declared there once, and its handler runs
 * the one pipeline (src/server/writes/pipeline.ts) with exactly those, so the
 * documents and the running write cannot disagree.
 */
export function writeOperation<Input>({ prepare, holdable, ...entry }: WriteEntry<Input>): OperationDefinition {
  const { body: schema, quota, captcha } = entry;
  return { ...entry, handle: writeHandler({ schema, quota, captcha, holdable: holdable === true, prepare }) };
}

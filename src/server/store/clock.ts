/** The last millisecond stamped, and its ISO text: writes arriving within one millisecond share it. */
let last = { ms: Number.NaN, text: '' };

/**
 * The time a record is stamped with, in ISO 8601 (UTC, milliseconds), as
 * `new Date().toISOString()` gives it; made once per millisecond, since
 * formatting a date costs a write more than reading the clock.
 */
export function now(): string {
  const ms = Date.now();
  if (ms !== last.ms) last = { ms, text: new Date(ms).toISOString() };
  return last.text;
}

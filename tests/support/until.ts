/**
 * Polls `condition` every `everyMs` until it holds, or rejects naming `what`
 * after `timeoutMs`: a bounded wait on a condition, never a fixed sleep.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 30_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

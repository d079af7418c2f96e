/**
 * The fastest of `runs` runs of `work`, in milliseconds, after one run not
 * counted: the machine's other work falls on single runs, not on what
 * `work` costs.
 */
export function fastestMs(work: () => unknown, runs = 5): number {
  work();
  let fastest = Infinity;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

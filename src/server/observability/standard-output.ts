/**
 * The process's standard output as the log's destination: blocks of lines,
 * each written at once with one system call on the server's thread (no
 * hand-over to a thread on the same core), without holding the server for a
 * slow reader.
 *
 * A pipe or a socket (a supervisor, journald, a container runtime, the bench)
 * is open non-blocking, as Node opens it for `process.stdout`: a block is
 * written as far as it has room, and what it has no room for waits, in
 * order, and is tried again RETRY_MS later. Past `waitingBytes` waiting,
 * blocks are dropped rather than held: a reader that stops reading costs
 * lines, never the server. A file or a terminal takes a block at once, as
 * pino's default destination writes them.
 */
import { writeSync } from 'node:fs';

export interface BlockDestination {
  /** Takes a block of whole lines, which the caller no longer holds. */
  write(bytes: Buffer): void;
  /**
   * Writes what waits, now, as far as the reader takes it: after an error
   * line at once, and at exit waiting up to `patienceMs` for it to make room.
   */
  writeWaiting(patienceMs?: number): void;
}

/** How soon blocks a full pipe made wait are tried again. */
const RETRY_MS = 10;

/** What writeWaiting sleeps on between tries, a millisecond at a time. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** Blocks written to `fd`, at most `waitingBytes` of them waiting for its reader. */
function blockWriter(fd: number, waitingBytes: number): BlockDestination {
  const waiting: Buffer[] = [];
  let waitingLength = 0;
  let retry: NodeJS.Timeout | undefined;
  /** Writes what waits as far as the reader takes it; whether all of it left. */
  function writeNow(): boolean {
    while (waiting.length > 0) {
      const head = waiting[0] as Buffer;
      let written: number;
      try {
        written = writeSync(fd, head);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return false;
        // The reader has gone (EPIPE), the disk is full, the descriptor closed: the lines are lost, never the request.
        waiting.length = 0;
        waitingLength = 0;
        return true;
      }
      waitingLength -= written;
      if (written === head.length) waiting.shift();
      else waiting[0] = head.subarray(written);
    }
    return true;
  }
  function tryLater(): void {
    retry ??= setTimeout(() => {
      retry = undefined;
      if (!writeNow()) tryLater();
    }, RETRY_MS).unref();
  }
  return {
    write(bytes) {
      if (waitingLength + bytes.length > waitingBytes) return;
      waiting.push(bytes);
      waitingLength += bytes.length;
      if (!retry && !writeNow()) tryLater();
    },
    writeWaiting(patienceMs = 0) {
      const until = performance.now() + patienceMs;
      while (!writeNow() && performance.now() < until) Atomics.wait(PAUSE, 0, 0, 1);
    },
  };
}

/** The process's standard output, holding at most `waitingBytes` for a slow reader. */
export function standardOutput(waitingBytes: number): BlockDestination {
  // Node opens a pipe or a socket non-blocking when it makes process.stdout over it: made here, before the first write.
  return blockWriter(process.stdout.fd, waitingBytes);
}

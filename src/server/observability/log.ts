/**
 * The server's one logger (docs/architecture.md, "Operating"): every line the
 * server writes goes through it, as one JSON object a line (pino), or as a
 * line for people (`LOG_FORMAT=pretty`, or a terminal; pino-pretty).
 * `LOG_LEVEL` sets the least severe level written.
 *
 * Lines are encoded, as they are written, into a block of BLOCK_BYTES, and the
 * block's bytes leave in one write once it is full, and within
 * WRITTEN_WITHIN_MS of its first line whatever it holds. The process's logger
 * hands them to its standard output (standard-output.ts), which writes them
 * without holding the server for a slow reader: one write per request, or a
 * reader slower than the server, would cost every reader. Past WAITING_BYTES
 * not yet written, lines are dropped rather than held. An error is written
 * at once with what waited before it, as far as the reader has room, so that
 * a crash right after still leaves it; at exit the process waits up to
 * EXIT_PATIENCE_MS for a slow reader.
 *
 * The access line, one a request, is built as text from the fields at hand,
 * the same JSON pino would write, without going through pino.
 *
 * What is never logged, by any caller: a reader's address or hash, a body a
 * reader wrote, a secret. Callers pass only what they name.
 */
import { pino } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { settingsOf, type LogLevel, type Settings } from '../settings/environment.ts';
import { standardOutput } from './standard-output.ts';

/** What a line may carry besides its message: flat, named values. */
type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

const SEVERITY: Readonly<Record<LogLevel, number>> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** The block lines are encoded into: one write for about 150 access lines. */
const BLOCK_BYTES = 32 * 1024;

/** Bytes of lines the process's destination holds at most while its reader is slow: more are dropped. */
const WAITING_BYTES = 16 * 1024 * 1024;

/** How long an exiting process waits at most for a slow reader to take the lines it still holds. */
const EXIT_PATIENCE_MS = 1000;

/** A block leaves this long after its first line at the latest: a quiet server's lines are not held for long. */
const WRITTEN_WITHIN_MS = 200;

/** One access line's fields (requests.ts). */
interface AccessFields {
  requestId: string;
  method: string;
  kind: string;
  /** '' for none. */
  operation: string;
  path: string;
  status: number;
  ms: number;
  bytes: number;
}

export interface Logger {
  /** Whether a line of `level` is written: a caller that builds fields for it can skip the work. */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
  error(message: string, fields?: LogFields, error?: unknown): void;
  warn(message: string, fields?: LogFields, error?: unknown): void;
  info(message: string, fields?: LogFields): void;
  /**
   * A line at `info` written at every level but `silent`: the listening line,
   * which start-up scripts, supervisors and the bench wait for.
   */
  announce(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** An access line at `info`, as `info('request', fields)` would write it, an empty operation left out. */
  request(fields: AccessFields): void;
  /** Writes what waits, now. */
  flush(): void;
}

export interface LoggerOptions {
  level: LogLevel;
  format: NonNullable<Settings['LOG_FORMAT']>;
  /** Where lines go, several at a time, as UTF-8 bytes the logger no longer holds. */
  write: (bytes: Buffer) => void;
  /** Writes synchronously what `write` was given and still holds: after an error line, and at exit. */
  writeWaiting?: () => void;
  /** The time in milliseconds since the epoch. */
  now?: () => number;
}

/** An error as one line's field: its stack, or what it says. */
function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

/** The fields of a line for people: ` name=value`, a value with a space quoted. */
function prettyFields(line: Record<string, unknown>): string {
  let text = '';
  for (const [name, value] of Object.entries(line))
    if (name !== 'time' && name !== 'level' && name !== 'msg')
      text += ` ${name}=${typeof value === 'string' && value.includes(' ') ? JSON.stringify(value) : String(value)}`;
  return text;
}

/** pino's JSON lines as lines for people: time of day, level, message, fields. */
function prettyLines(): (line: string) => string {
  return prettyFactory({
    colorize: false,
    hideObject: true,
    translateTime: 'UTC:HH:MM:ss.l',
    customPrettifiers: {
      time: (time) => (typeof time === 'string' ? time : ''),
      level: (level) => (typeof level === 'string' ? level.toUpperCase() : ''),
    },
    messageFormat: (line, messageKey) => `${String(line[messageKey])}${prettyFields(line)}`,
  });
}

/**
 * Where lines wait: encoded into one block of BLOCK_BYTES as they come, its
 * bytes handed to `write` once it is full, WRITTEN_WITHIN_MS after its first
 * line, or when flushed. A line longer than a block leaves on its own.
 */
function blockDestination(write: (bytes: Buffer) => void): { write: (line: string) => void; flush: () => void } {
  const block = Buffer.allocUnsafeSlow(BLOCK_BYTES);
  let used = 0;
  let timer: NodeJS.Timeout | undefined;
  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (used === 0) return;
    const bytes = Buffer.allocUnsafeSlow(used);
    block.copy(bytes, 0, 0, used);
    used = 0;
    write(bytes);
  }
  return {
    write: (line) => {
      // A UTF-16 unit is at most three bytes of UTF-8: a line that may not fit sends the block first.
      const most = line.length * 3;
      if (used + most > BLOCK_BYTES) flush();
      if (most > BLOCK_BYTES) {
        write(Buffer.from(line));
        return;
      }
      used += block.write(line, used);
      if (!timer) {
        timer = setTimeout(flush, WRITTEN_WITHIN_MS);
        timer.unref();
      }
    },
    flush,
  };
}

/** A character JSON may write escaped: a quote, a backslash, a control character, half of a surrogate pair. */
const ESCAPED_IN_JSON = /["\\\p{Cc}\p{Cs}]/u;

/**
 * An access line as pino writes `info('request', fields)` (its level, then
 * `timestamp`), an empty operation left out. Only the path is the caller's
 * text; the id is the server's own, the method one Node's parser knows, the
 * kind and the operation names of the server's: none holds a character JSON
 * escapes, and each is written as it is.
 */
function accessLine({ requestId, method, kind, operation, path, status, ms, bytes }: AccessFields, timestamp: string): string {
  const named = operation === '' ? '' : `,"operation":"${operation}"`;
  const quotedPath = ESCAPED_IN_JSON.test(path) ? JSON.stringify(path) : `"${path}"`;
  return `{"level":"info"${timestamp},"requestId":"${requestId}","method":"${method}","kind":"${kind}"${named},"path":${quotedPath},"status":${status},"ms":${ms},"bytes":${bytes},"msg":"request"}\n`;
}

/** A logger writing through `write`; see the module's comment for its rules. */
export function createLogger({ level, format, write, writeWaiting = () => undefined, now = Date.now }: LoggerOptions): Logger {
  // Formatting a date costs more than the rest of an access line: lines of one millisecond share it.
  let formattedAt = Number.NaN;
  let formatted = '';
  function timestamp(): string {
    const at = now();
    if (at !== formattedAt) {
      formattedAt = at;
      formatted = `,"time":"${new Date(at).toISOString()}"`;
    }
    return formatted;
  }
  const batch = blockDestination(write);
  const pretty = format === 'pretty' ? prettyLines() : undefined;
  const destination = pretty
    ? {
        write: (line: string) => {
          batch.write(pretty(line));
        },
      }
    : batch;
  const options = { base: null, timestamp, formatters: { level: (label: string) => ({ level: label }) } };
  const lines = pino({ ...options, level }, destination);
  // The listening line is written at every level but `silent`.
  const announcements = pino({ ...options, level: level === 'silent' ? 'silent' : 'info' }, destination);
  const threshold = SEVERITY[level];

  return {
    enabled: (severity) => SEVERITY[severity] <= threshold,
    error: (message, fields, error?: unknown) => {
      if (threshold < SEVERITY.error) return;
      lines.error(error === undefined ? (fields ?? {}) : { ...fields, error: describeError(error) }, message);
      batch.flush();
      writeWaiting();
    },
    warn: (message, fields, error?: unknown) => {
      lines.warn(error === undefined ? (fields ?? {}) : { ...fields, error: describeError(error) }, message);
    },
    info: (message, fields) => {
      lines.info(fields ?? {}, message);
    },
    announce: (message, fields) => {
      announcements.info(fields ?? {}, message);
    },
    debug: (message, fields) => {
      lines.debug(fields ?? {}, message);
    },
    request: (fields) => {
      if (threshold < SEVERITY.info) return;
      destination.write(accessLine(fields, timestamp()));
    },
    flush: () => {
      batch.flush();
      writeWaiting();
    },
  };
}

let processLogger: Logger | undefined;

/**
 * The process's logger, made at first use from LOG_LEVEL and LOG_FORMAT
 * (unset: pretty on a terminal, JSON elsewhere), writing to stdout.
 */
export function log(): Logger {
  if (!processLogger) {
    const { LOG_LEVEL: level, LOG_FORMAT: format } = settingsOf(['LOG_LEVEL', 'LOG_FORMAT']);
    const stdout = standardOutput(WAITING_BYTES);
    const logger = createLogger({
      level,
      format: format ?? (process.stdout.isTTY ? 'pretty' : 'json'),
      write: (bytes) => {
        stdout.write(bytes);
      },
      writeWaiting: () => {
        stdout.writeWaiting();
      },
    });
    process.once('exit', () => {
      logger.flush();
      stdout.writeWaiting(EXIT_PATIENCE_MS);
    });
    processLogger = logger;
  }
  return processLogger;
}

/**
 * The server's one logger (docs/decisions.md, Operating): every line the
 * server writes goes through it, as one JSON object a line, or as a line for
 * people (`LOG_FORMAT=pretty`, or a terminal). `LOG_LEVEL` sets the least
 * severe level written; below it a call costs one comparison.
 *
 * Lines are gathered and written together once per turn of the event loop
 * (or when 64 KiB wait): a write to a pipe or a file is synchronous in Node,
 * and one per request would hold the server for every reader. An error is
 * written at once, with what waited before it, so that a crash right after
 * still leaves it; whatever waits is written when the process exits.
 *
 * What is never logged, by any caller: a reader's address or hash, a body a
 * reader wrote, a secret. Callers pass only what they name.
 */
import { logFormat, logLevel, type LogLevel } from '../settings/environment.ts';

/** What a line may carry besides its message: flat, named values. */
type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

const SEVERITY: Readonly<Record<LogLevel, number>> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Waiting lines past this many characters are written at once. */
const FLUSH_CHARACTERS = 64 * 1024;

export interface Logger {
  /** Whether a line of `level` is written: a caller that builds fields for it can skip the work. */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
  error(message: string, fields?: LogFields, error?: unknown): void;
  warn(message: string, fields?: LogFields, error?: unknown): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** Writes what waits, now. */
  flush(): void;
}

export interface LoggerOptions {
  level: LogLevel;
  format: 'json' | 'pretty';
  /** Where lines go, several at a time. */
  write: (text: string) => void;
  now?: () => Date;
}

/** An error as one line's field: its stack, or what it says. */
function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

function prettyLine(time: Date, level: string, message: string, fields: LogFields | undefined): string {
  let line = `${time.toISOString().slice(11, 23)} ${level.toUpperCase().padEnd(5)} ${message}`;
  if (fields)
    for (const [name, value] of Object.entries(fields))
      if (value !== undefined)
        line += ` ${name}=${typeof value === 'string' && value.includes(' ') ? JSON.stringify(value) : String(value)}`;
  return `${line}\n`;
}

/** A logger writing through `write`; see the module's comment for its rules. */
export function createLogger({ level, format, write, now = () => new Date() }: LoggerOptions): Logger {
  const threshold = SEVERITY[level];
  let waiting = '';
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    if (waiting === '') return;
    const text = waiting;
    waiting = '';
    write(text);
  }

  function line(severity: Exclude<LogLevel, 'silent'>, message: string, fields: LogFields | undefined, error: unknown): void {
    if (SEVERITY[severity] > threshold) return;
    const withError = error === undefined ? fields : { ...fields, error: describeError(error) };
    const time = now();
    waiting +=
      format === 'pretty'
        ? prettyLine(time, severity, message, withError)
        : `${JSON.stringify({ time: time.toISOString(), level: severity, msg: message, ...withError })}\n`;
    if (severity === 'error' || waiting.length >= FLUSH_CHARACTERS) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }

  return {
    enabled: (severity) => SEVERITY[severity] <= threshold,
    error: (message, fields, error?: unknown) => {
      line('error', message, fields, error);
    },
    warn: (message, fields, error?: unknown) => {
      line('warn', message, fields, error);
    },
    info: (message, fields) => {
      line('info', message, fields, undefined);
    },
    debug: (message, fields) => {
      line('debug', message, fields, undefined);
    },
    flush,
  };
}

let processLogger: Logger | undefined;

/**
 * The process's logger, made at first use from LOG_LEVEL and LOG_FORMAT
 * (unset: pretty on a terminal, JSON elsewhere), writing to stdout.
 */
export function log(): Logger {
  if (!processLogger) {
    const logger = createLogger({
      level: logLevel(),
      format: logFormat() ?? (process.stdout.isTTY ? 'pretty' : 'json'),
      write: (text) => process.stdout.write(text),
    });
    process.once('exit', () => {
      logger.flush();
    });
    processLogger = logger;
  }
  return processLogger;
}

/**
 * The server's one logger (docs/architecture.md, "Operating"): every line the
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
import { settingsOf, type LogLevel, type Settings } from '../settings/environment.ts';

/** What a line may carry besides its message: flat, named values. */
type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

const SEVERITY: Readonly<Record<LogLevel, number>> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Waiting lines past this many characters are written at once. */
const FLUSH_CHARACTERS = 64 * 1024;

/** One access line's fields (requests.ts); method, kind and operation are tokens, never needing escapes. */
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
  /**
   * An access line at `info`, the same as `info('request', fields)` would
   * write, built as text: it is written once per request, where a generic
   * object's spread and stringify cost more than the rest of a small read's logging.
   */
  request(fields: AccessFields): void;
  /** Writes what waits, now. */
  flush(): void;
}

export interface LoggerOptions {
  level: LogLevel;
  format: NonNullable<Settings['LOG_FORMAT']>;
  /** Where lines go, several at a time. */
  write: (text: string) => void;
  /** The time in milliseconds since the epoch. */
  now?: () => number;
}

/** An error as one line's field: its stack, or what it says. */
function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

function prettyLine(time: string, level: string, message: string, fields: LogFields | undefined): string {
  let line = `${time.slice(11, 23)} ${level.toUpperCase().padEnd(5)} ${message}`;
  if (fields)
    for (const [name, value] of Object.entries(fields))
      if (value !== undefined)
        line += ` ${name}=${typeof value === 'string' && value.includes(' ') ? JSON.stringify(value) : String(value)}`;
  return `${line}\n`;
}

/** A logger writing through `write`; see the module's comment for its rules. */
export function createLogger({ level, format, write, now = Date.now }: LoggerOptions): Logger {
  const threshold = SEVERITY[level];
  // Formatting a date costs more than the rest of an access line: lines of one millisecond share it.
  let formattedAt = Number.NaN;
  let formatted = '';
  function time(): string {
    const at = now();
    if (at !== formattedAt) {
      formattedAt = at;
      formatted = new Date(at).toISOString();
    }
    return formatted;
  }
  let waiting = '';
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    if (waiting === '') return;
    const text = waiting;
    waiting = '';
    write(text);
  }

  function add(text: string, severity: Exclude<LogLevel, 'silent'>): void {
    waiting += text;
    if (severity === 'error' || waiting.length >= FLUSH_CHARACTERS) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }

  function line(severity: Exclude<LogLevel, 'silent'>, message: string, fields: LogFields | undefined, error: unknown): void {
    if (SEVERITY[severity] > threshold) return;
    addLine(severity, message, fields, error);
  }

  function addLine(severity: Exclude<LogLevel, 'silent'>, message: string, fields: LogFields | undefined, error: unknown): void {
    const withError = error === undefined ? fields : { ...fields, error: describeError(error) };
    add(
      format === 'pretty'
        ? prettyLine(time(), severity, message, withError)
        : `${JSON.stringify({ time: time(), level: severity, msg: message, ...withError })}\n`,
      severity,
    );
  }

  function request(fields: AccessFields): void {
    if (SEVERITY.info > threshold) return;
    if (format === 'pretty') {
      line('info', 'request', { ...fields, operation: fields.operation || undefined }, undefined);
      return;
    }
    const { requestId, method, kind, operation, path, status, ms, bytes } = fields;
    const named = operation === '' ? '' : `,"operation":"${operation}"`;
    add(
      `{"time":"${time()}","level":"info","msg":"request","requestId":"${requestId}","method":"${method}","kind":"${kind}"${named},"path":${JSON.stringify(path)},"status":${status},"ms":${ms},"bytes":${bytes}}\n`,
      'info',
    );
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
    announce: (message, fields) => {
      if (threshold > SEVERITY.silent) addLine('info', message, fields, undefined);
    },
    debug: (message, fields) => {
      line('debug', message, fields, undefined);
    },
    request,
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
    const { LOG_LEVEL: level, LOG_FORMAT: format } = settingsOf(['LOG_LEVEL', 'LOG_FORMAT']);
    const logger = createLogger({
      level,
      format: format ?? (process.stdout.isTTY ? 'pretty' : 'json'),
      write: (text) => process.stdout.write(text),
    });
    process.once('exit', () => {
      logger.flush();
    });
    processLogger = logger;
  }
  return processLogger;
}

/**
 * The owner's data tool (npm run data -- <command>): export, import, the
 * review queue, approving and deleting a comment, bans and counts, on whichever store the
 * settings choose. Arguments are checked before the store is opened.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { storedReaderName } from '../../i18n/reader-names.ts';
import { builtArticleSlugs, CONTENT_DIR } from '../articles/built-content.ts';
import { IMPORT_SOURCES } from '../imports/foreign.ts';
import { importForeign } from '../imports/import-run.ts';
import { exportRecord } from '../store/shapes.ts';
import type { FollowerStore, MentionStore, ModerationStore, StoreLifecycle, TransferStore } from '../store/roles.ts';
import type { ExportRecord } from '../store/types.ts';
import {
  answerTopicRequest,
  answerUrl,
  approveMention,
  blockInstance,
  deleteMention,
  declineTopicRequest,
  exportLines,
  markReviewed,
  moderateComment,
  setReaderBan,
  unblockInstance,
  type CommentAction,
} from './actions.ts';
import { formatQueue, formatStats } from './format.ts';
import { USAGE } from './usage.ts';
import { UsageError } from '../tools/usage-error.ts';

export interface ToolIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Whether to keep a progress line on stderr (it is a terminal). */
  progress: boolean;
}

/** The command could not do what was asked: exit code 1. */
class ToolFailure extends Error {}

/** The roles the tool's commands use. */
type OwnerStore = ModerationStore & TransferStore & FollowerStore & MentionStore & StoreLifecycle;

/** A command whose arguments were checked, ready to run on the store. */
type Prepared = (store: OwnerStore, io: ToolIo) => Promise<void>;

/** A command that is one owner's action (actions.ts): its report on stdout. */
function reported(action: (store: OwnerStore) => Promise<string>): Prepared {
  return async (store, io) => void io.stdout.write(`${await action(store)}\n`);
}

const PROGRESS_EVERY = 1000;

function expectArguments(args: string[], count: number, shape: string): void {
  if (args.length !== count) throw new UsageError(`expected ${shape}`);
}

function prepareExport(args: string[]): Prepared {
  const [flag, file, ...extra] = args;
  if (flag !== undefined && (flag !== '--out' || file === undefined || extra.length > 0))
    throw new UsageError('expected export [--out FILE]');
  return async (store, io) => {
    const out = file === undefined ? io.stdout : createWriteStream(file, { mode: 0o600 });
    if (file !== undefined) {
      // It holds the salt that names every reader: the owner's alone, a file that was there before included.
      await once(out, 'open');
      await chmod(file, 0o600);
    }
    let count = 0;
    for await (const line of exportLines(store)) {
      if (!out.write(line)) await once(out, 'drain');
      count += 1;
      if (io.progress && count % PROGRESS_EVERY === 0) io.stderr.write(`\rexported ${count} records`);
    }
    if (out !== io.stdout) {
      out.end();
      await finished(out);
    }
    io.stderr.write(`${io.progress ? '\r' : ''}exported ${count} records\n`);
  };
}

/** The records of an export, checked line by line; a bad line stops the import naming it. */
async function* readRecords(input: Readable, io: ToolIo): AsyncGenerator<ExportRecord> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line += 1;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ToolFailure(`line ${line} is not JSON`);
    }
    const parsed = exportRecord.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ToolFailure(`line ${line} is not an export record: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
    }
    if (io.progress && line % PROGRESS_EVERY === 0) io.stderr.write(`\rread ${line} lines`);
    yield parsed.data;
  }
}

/** import --from SOURCE FILE [--map MAP] [--dry-run]: another comment system's export (src/server/imports/). */
function prepareForeignImport(args: string[]): Prepared {
  const dryRun = args.includes('--dry-run');
  const rest = args.filter((arg) => arg !== '--dry-run');
  const [, source, file, mapFlag, mapFile, ...extra] = rest;
  const shape = `expected import --from <${IMPORT_SOURCES.join('|')}> FILE [--map MAP] [--dry-run]`;
  if (file === undefined || extra.length > 0 || (mapFlag !== undefined && (mapFlag !== '--map' || mapFile === undefined)))
    throw new UsageError(shape);
  const known = IMPORT_SOURCES.find((name) => name === source);
  if (known === undefined) throw new UsageError(shape);
  return reported(async (store) =>
    importForeign(store, { source: known, file, mapFile, dryRun, slugs: await builtArticleSlugs(CONTENT_DIR) }),
  );
}

function prepareImport(args: string[]): Prepared {
  if (args[0] === '--from') return prepareForeignImport(args);
  if (args.length > 1) throw new UsageError('expected import [FILE]');
  const [file] = args;
  return async (store, io) => {
    const input = file === undefined || file === '-' ? io.stdin : createReadStream(file);
    const { added, skipped } = await store.importRecords(readRecords(input, io));
    io.stdout.write(`${io.progress ? '\n' : ''}imported: ${added} added, ${skipped} already there\n`);
  };
}

function prepareReview(args: string[]): Prepared {
  const [action, id, url, ...extra] = args;
  if (action === undefined) return async (store, io) => void io.stdout.write(formatQueue(await store.reviewQueue()));
  if (id === undefined || extra.length > 0)
    throw new UsageError('expected review, review answer ID URL, review decline ID or review done ID');
  if (action === 'answer') {
    if (url === undefined) throw new UsageError('expected review answer ID URL');
    const link = answerUrl(url);
    if (link === null) throw new UsageError(`"${url}" is neither an http(s) address nor a path starting with /`);
    return reported((store) => answerTopicRequest(store, id, link));
  }
  if (url !== undefined) throw new UsageError(`expected review ${action} ID`);
  if (action === 'decline') return reported((store) => declineTopicRequest(store, id));
  if (action === 'done') return reported((store) => markReviewed(store, id));
  throw new UsageError(`unknown review action "${action}"`);
}

/** approve ID, delete-comment ID: the owner's action on one comment, as a moderation link does it. */
function prepareModeration(action: CommentAction, command: string): (args: string[]) => Prepared {
  return (args) => {
    expectArguments(args, 1, `${command} ID`);
    const [id = ''] = args;
    return reported((store) => moderateComment(store, action, id));
  };
}

/**
 * A reader by hash, by the id of one of its comments (the name two readers
 * may share, a comment's id is one), or by the colour-and-animal name its
 * comments show, in any of the site's languages (other than those names, a
 * name has a space; a hash and an id have none).
 */
async function readerOf(store: ModerationStore, reader: string): Promise<string> {
  const name = storedReaderName(reader) ?? (/\s/.test(reader) ? reader : null);
  if (name === null) return (await store.findComment(reader))?.authorHash ?? reader;
  const hashes = await store.readersNamed(name);
  if (hashes.length === 0) throw new ToolFailure(`no comment shows the name "${reader}"`);
  if (hashes.length > 1)
    throw new ToolFailure(
      `${hashes.length} readers show the name "${reader}"; name one by its hash or a comment's id:\n${hashes.map((hash) => `  ${hash}`).join('\n')}`,
    );
  return hashes[0] ?? reader;
}

function prepareBan(banned: boolean): (args: string[]) => Prepared {
  const verb = banned ? 'ban' : 'unban';
  return (args) => {
    const reader = args.join(' ').trim();
    if (reader === '') throw new UsageError(`expected ${verb} READER`);
    return reported(async (store) => setReaderBan(store, await readerOf(store, reader), banned));
  };
}

/** block-instance HOST, unblock-instance HOST; blocked-instances lists them. */
function prepareInstanceBlock(blocked: boolean): (args: string[]) => Prepared {
  const verb = blocked ? 'block-instance' : 'unblock-instance';
  return (args) => {
    expectArguments(args, 1, `${verb} HOST`);
    const [host = ''] = args;
    return reported((store) => (blocked ? blockInstance(store, host) : unblockInstance(store, host)));
  };
}

function prepareBlockedInstances(args: string[]): Prepared {
  expectArguments(args, 0, 'blocked-instances, with no argument');
  return async (store, io) => {
    const blocks = await store.blockedInstances();
    io.stdout.write(
      blocks.length === 0 ? 'No instance is blocked.\n' : blocks.map(({ host, blockedAt }) => `${host}  since ${blockedAt}\n`).join(''),
    );
  };
}

/** approve-mention SOURCE TARGET, delete-mention SOURCE TARGET; mentions lists the received ones. */
function prepareMention(approve: boolean): (args: string[]) => Prepared {
  const verb = approve ? 'approve-mention' : 'delete-mention';
  return (args) => {
    expectArguments(args, 2, `${verb} SOURCE TARGET`);
    const [source = '', target = ''] = args;
    return reported((store) => (approve ? approveMention(store, source, target) : deleteMention(store, source, target)));
  };
}

function prepareMentions(args: string[]): Prepared {
  expectArguments(args, 0, 'mentions, with no argument');
  return async (store, io) => {
    const received = (await store.listMentions()).filter((mention) => mention.direction === 'received');
    io.stdout.write(
      received.length === 0
        ? 'No Webmention was received.\n'
        : received.map(({ status, kind, source, target }) => `${status}  ${kind ?? '-'}  ${source} ${target}\n`).join(''),
    );
  };
}

function prepareStats(args: string[]): Prepared {
  expectArguments(args, 0, 'stats, with no argument');
  return async (store, io) => void io.stdout.write(formatStats(await store.stats()));
}

const COMMANDS: Record<string, (args: string[]) => Prepared> = {
  export: prepareExport,
  import: prepareImport,
  review: prepareReview,
  approve: prepareModeration('approve', 'approve'),
  'delete-comment': prepareModeration('delete', 'delete-comment'),
  ban: prepareBan(true),
  unban: prepareBan(false),
  'block-instance': prepareInstanceBlock(true),
  'unblock-instance': prepareInstanceBlock(false),
  'blocked-instances': prepareBlockedInstances,
  mentions: prepareMentions,
  'approve-mention': prepareMention(true),
  'delete-mention': prepareMention(false),
  stats: prepareStats,
};

/** Runs one command; resolves with the process's exit code. */
export async function runDataTool(args: string[], openStore: () => Promise<OwnerStore>, io: ToolIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(USAGE);
    return 0;
  }
  const prepare = command === undefined ? undefined : COMMANDS[command];
  if (!prepare) {
    io.stderr.write(`${command === undefined ? 'No command given.' : `Unknown command "${command}".`}\n\n${USAGE}`);
    return 2;
  }
  let store: OwnerStore | undefined;
  try {
    const run = prepare(rest);
    store = await openStore();
    await run(store, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${command}: ${error.message} (npm run data -- --help)\n`);
      return 2;
    }
    io.stderr.write(`${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await store?.close().catch((error: unknown) => {
      io.stderr.write(`closing the store failed: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  }
}

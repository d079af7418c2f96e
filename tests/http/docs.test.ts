import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  documentationFiles,
  headingAnchors,
  relativeLinks,
  settingsRows,
  splitFences,
  variablesReadOutsideSettings,
  type FencedBlock,
} from '../support/docs.ts';
import { SETTINGS } from '../../src/server/settings/schema.ts';
import { exportRecord } from '../../src/server/store/shapes.ts';
import { freePort } from '../support/ports.ts';
import { copyOfPreparedSite, ROOT, startSite, type RunningSite } from '../support/site.ts';

/**
 * The README and the guides in docs/ against the code: every setting the code
 * reads documented by exactly one row of a settings table, every relative
 * link pointing at a file (and a heading) that exists, and every shell
 * example run against a started site.
 *
 * The convention for examples: a ```sh block is run, from the top of a copy
 * of the project, with `http://localhost:4321` standing for the started
 * site and `http://127.0.0.1:9464` for its metrics listener. A block that
 * cannot run here starts with `# not run by the docs test: <reason>`; shell
 * examples use no other fence language.
 */
const NOT_RUN = /^# not run by the docs test: \S/;
const SHELL_LANGUAGES = new Set(['bash', 'shell', 'console', 'zsh']);
/** How long one example may take: the data tool and the translations tool each start Node. */
const EXAMPLE_TIMEOUT_MS = 60_000;

interface Doc {
  file: string;
  blocks: FencedBlock[];
  prose: string;
}

const docs: Doc[] = await Promise.all(
  (await documentationFiles()).map(async (file) => ({ file, ...splitFences(file, await readFile(join(ROOT, file), 'utf8')) })),
);

test('README.md stays short enough to read in a few minutes', async () => {
  const lines = (await readFile(join(ROOT, 'README.md'), 'utf8')).split('\n').length;
  assert.ok(lines <= 250, `README.md has ${lines} lines; the guides in docs/ take the rest`);
});

const rows = docs.flatMap(({ file, prose }) => settingsRows(file, prose));

/**
 * Every variable that needs a row, with where it comes from: the server's
 * settings from their schema, the tools' (the scripts', the bench's) from
 * the code that reads them.
 */
async function variablesToDocument(): Promise<Map<string, string>> {
  const declared = new Map(Object.entries(SETTINGS).map(([name, { meaning }]) => [name, `declared in the settings schema: ${meaning}`]));
  for (const [name, files] of await variablesReadOutsideSettings()) declared.set(name, `read in ${[...files].join(', ')}`);
  return declared;
}

test('every setting the schema declares and every variable the tools read has exactly one row in a settings table, and no row names another', async () => {
  const variables = await variablesToDocument();
  const rowsNaming = (name: string) => rows.filter((row) => row.names.includes(name)).map((row) => `${row.file}:${row.line}`);
  for (const [name, source] of variables) {
    const where = rowsNaming(name);
    assert.equal(where.length, 1, `${name} (${source}) is documented by ${where.length} rows: ${where.join(', ')}`);
  }
  for (const row of rows) {
    assert.ok(row.names.length > 0, `${row.file}:${row.line}: a settings row names no variable`);
    for (const name of row.names)
      assert.ok(variables.has(name), `${row.file}:${row.line} documents ${name}, which no schema declares and no code reads`);
  }
});

test('the server and Astro read the environment through the settings schema alone', async () => {
  const outside = [...(await variablesReadOutsideSettings())].filter(([, files]) =>
    [...files].some((file) => file.startsWith('src/') || file === 'astro.config.mjs'),
  );
  assert.deepEqual(
    outside.map(([name, files]) => `${name} read in ${[...files].join(', ')}`),
    [],
    'declare it in src/server/settings/schema.ts and read it with setting()',
  );
});

test("a setting's row marks it *build* as the schema does, and shows its default", () => {
  for (const [name, declaration] of Object.entries(SETTINGS)) {
    const row = rows.find((candidate) => candidate.names.includes(name));
    if (row === undefined) continue; // told by the test above
    assert.equal(
      row.built.includes(name),
      'build' in declaration,
      `${row.file}:${row.line}: ${name} is marked *build* or not as the schema says`,
    );
    if ('fallback' in declaration)
      assert.ok(
        row.defaultCell.includes(`\`${declaration.fallback}\``),
        `${row.file}:${row.line}: ${name}'s default, \`${declaration.fallback}\``,
      );
  }
});

/** The prose of `heading`'s section of a guide, up to the next heading of its level or above. */
function sectionOf(prose: string, heading: string): string {
  const lines = prose.split('\n');
  const start = lines.indexOf(heading);
  assert.ok(start >= 0, `no heading "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 1;
  const end = lines.findIndex((line, index) => index > start && (/^#+ /.exec(line)?.[0].length ?? Infinity) <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

test("the owner's guide describes every kind of record an export holds, each in an item of its own", () => {
  const owner = docs.find(({ file }) => file === 'docs/owner.md');
  assert.ok(owner !== undefined);
  const section = sectionOf(owner.prose, "### Longhand's export format");
  const kinds = exportRecord.options.map((option) => option.shape.kind.value);
  assert.ok(kinds.length > 0);
  for (const kind of kinds)
    assert.match(section, new RegExp(`^- \`${kind}\`: `, 'm'), `docs/owner.md, "Longhand's export format": no item for \`${kind}\``);
});

test('every relative link of the README and the guides points at a file, and at a heading of it', () => {
  const proseOf = new Map(docs.map(({ file, prose }) => [file, prose]));
  for (const link of docs.flatMap(({ file, prose }) => relativeLinks(file, prose))) {
    assert.ok(existsSync(join(ROOT, link.path)), `${link.file}: ${link.target} names no file`);
    if (link.anchor === undefined) continue;
    const target = proseOf.get(link.path);
    assert.ok(target !== undefined, `${link.file}: ${link.target} has an anchor into a file that is not a guide`);
    assert.ok(headingAnchors(target).has(link.anchor), `${link.file}: ${link.target} names no heading of ${link.path}`);
  }
});

test('every shell example is a sh block, and one that is not run says why', () => {
  for (const block of docs.flatMap(({ blocks }) => blocks)) {
    assert.ok(!SHELL_LANGUAGES.has(block.lang), `${block.file}:${block.line}: a ${block.lang} block; shell examples are sh`);
    if (block.lang === 'sh' && block.text.startsWith('# not run'))
      assert.match(block.text, NOT_RUN, `${block.file}:${block.line}: a block not run says why, as NOT_RUN reads it`);
  }
});

describe('the shell examples, run against a started site', () => {
  let dir: string;
  let site: RunningSite;
  let metricsPort: number;
  /** The data tool's store: the site holds its own, and an embedded store opens in one process at a time. */
  let dataDir: string;

  before(async () => {
    dir = await copyOfPreparedSite();
    dataDir = await mkdtemp(join(tmpdir(), 'longhand-docs-data-'));
    metricsPort = await freePort();
    site = await startSite(dir, { METRICS_PORT: String(metricsPort) });
  });

  after(async () => {
    await site.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Runs an example with bash, stopping at its first failing command; resolves with its exit code and output. */
  function run(script: string): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
        cwd: dir,
        env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`, DATA_DIR: dataDir },
        timeout: EXAMPLE_TIMEOUT_MS,
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('close', (code) => {
        resolve({ code, output });
      });
    });
  }

  const runnable = docs.flatMap(({ blocks }) => blocks).filter((block) => block.lang === 'sh' && !NOT_RUN.test(block.text));

  test('there are examples to run', () => {
    assert.ok(runnable.length > 0);
  });

  for (const block of runnable) {
    test(`${block.file}:${block.line} exits 0`, async () => {
      const script = block.text
        .replaceAll('http://localhost:4321', site.url)
        .replaceAll('http://127.0.0.1:9464', `http://127.0.0.1:${metricsPort}`);
      const { code, output } = await run(script);
      assert.equal(code, 0, `${block.file}:${block.line} failed:\n${script}\n---\n${output}`);
    });
  }
});

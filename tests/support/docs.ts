import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ROOT } from './site.ts';

/** The documentation a newcomer reads: README.md and every guide in docs/. */
export async function documentationFiles(): Promise<string[]> {
  const guides = (await readdir(join(ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  return ['README.md', ...guides.sort()];
}

/** A fenced block of a Markdown file: its language (`sh`, `yaml`, '' for none), its text and its first line's number. */
export interface FencedBlock {
  file: string;
  line: number;
  lang: string;
  text: string;
}

/** The fenced blocks of `markdown`, and its prose with every block left out (line numbers kept: each block line is blank). */
export function splitFences(file: string, markdown: string): { blocks: FencedBlock[]; prose: string } {
  const blocks: FencedBlock[] = [];
  const prose: string[] = [];
  let open: { line: number; lang: string; lines: string[] } | null = null;
  for (const [index, text] of markdown.split('\n').entries()) {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (open === null && fence) open = { line: index + 1, lang: fence[1] ?? '', lines: [] };
    else if (open !== null && /^```\s*$/.test(text)) {
      blocks.push({ file, line: open.line, lang: open.lang, text: open.lines.join('\n') });
      open = null;
    } else if (open !== null) open.lines.push(text);
    prose.push(open === null && !fence ? text : '');
  }
  if (open !== null) throw new Error(`${file}: the block opened at line ${open.line} is never closed`);
  return { blocks, prose: prose.join('\n') };
}

/** Prose with inline code spans blanked, so that what they show is not read as a link or a table cell's name. */
function withoutCodeSpans(prose: string): string {
  return prose.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
}

/** A row of a settings table: the variables it documents, those it marks *build*, and its last cell (the default). */
export interface SettingsRow {
  file: string;
  line: number;
  names: string[];
  built: string[];
  defaultCell: string;
}

/**
 * The rows of the settings tables of `prose`: a table whose first header
 * cell is `variable`, each row naming its variables in code spans in its
 * first cell, each followed by `(*build*)` when the build bakes it in.
 */
export function settingsRows(file: string, prose: string): SettingsRow[] {
  const rows: SettingsRow[] = [];
  let inTable = false;
  prose.split('\n').forEach((text, index) => {
    if (/^\|\s*variable\s*\|/.test(text)) inTable = true;
    else if (!text.startsWith('|')) inTable = false;
    else if (inTable && !/^\|\s*-+\s*\|/.test(text)) {
      const cells = text.split('|').slice(1, -1);
      const firstCell = cells[0] ?? '';
      const named = [...firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`( \(\*build\*\))?/g)];
      rows.push({
        file,
        line: index + 1,
        names: named.map((match) => match[1] ?? ''),
        built: named.filter((match) => match[2] !== undefined).map((match) => match[1] ?? ''),
        defaultCell: cells.at(-1) ?? '',
      });
    }
  });
  return rows;
}

/** A relative link of a Markdown file's prose: the file it names (from the repository's root) and its anchor, if any. */
export interface RelativeLink {
  file: string;
  target: string;
  path: string;
  anchor: string | undefined;
}

/** Every link and image of `prose` that names a file of the repository (no scheme, no site path such as `/developers`). */
export function relativeLinks(file: string, prose: string): RelativeLink[] {
  const links: RelativeLink[] = [];
  for (const match of withoutCodeSpans(prose).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
    const [path = '', anchor] = target.split('#');
    const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    links.push({ file, target, path: path === '' ? file : relative(ROOT, join(ROOT, folder, path)), anchor });
  }
  return links;
}

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchors(prose: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = (match[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = base;
    for (let count = 1; anchors.has(anchor); count += 1) anchor = `${base}-${count}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The code besides the tests: the server, its scripts, the bench and Astro's configuration. */
const CODE = ['src', 'scripts', 'bench', 'astro.config.mjs'];
/** The one module that reads the server's settings, from its schema (src/server/settings/schema.ts). */
const SETTINGS_MODULE = 'src/server/settings/';

async function codeFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const entry of CODE) {
    if (entry.includes('.')) files.push(entry);
    else
      for (const name of await readdir(join(ROOT, entry), { recursive: true }))
        if (/\.(ts|mjs|js|astro)$/.test(name)) files.push(`${entry}/${name}`);
  }
  return files.filter((file) => !file.startsWith(SETTINGS_MODULE));
}

/** `process.env.X`, `process.env['X']` and `env['X']` (a parameter standing for process.env), not written to. */
const LITERAL_READ = /(?<![\w.$])(?:process\.)?env(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\])(?!\s*=[^=])/g;
/** A read whose name is worked out: `process.env[name]`. */
const COMPUTED_READ = /(?<![\w.$])(?:process\.)?env\[\s*(?!['"`][A-Z])([^\]]+?)\s*\]/g;

/**
 * The names a computed read can take. The one allowed outside the settings
 * module is Astro's `astro:env` getter, which reads what the configuration's
 * `env.schema` declares.
 */
function computedNames(file: string, source: string, index: string, astroConfig: string): string[] {
  if (file.endsWith('astro-entry.ts') && /setGetEnv\(/.test(source))
    return [...astroConfig.matchAll(/(\w+):\s*envField\./g)].map((match) => match[1] ?? '');
  throw new Error(`${file}: cannot tell which variable env[${index}] reads; read a setting through src/server/settings`);
}

/** Every environment variable the code reads outside the settings module, each with the files that read it. */
export async function variablesReadOutsideSettings(): Promise<Map<string, Set<string>>> {
  const astroConfig = await readFile(join(ROOT, 'astro.config.mjs'), 'utf8');
  const read = new Map<string, Set<string>>();
  const add = (name: string, file: string) => read.set(name, (read.get(name) ?? new Set()).add(file));
  for (const file of await codeFiles()) {
    const source = await readFile(join(ROOT, file), 'utf8');
    for (const match of source.matchAll(LITERAL_READ)) add(match[1] ?? match[2] ?? '', file);
    for (const match of source.matchAll(COMPUTED_READ))
      for (const name of computedNames(file, source, match[1] ?? '', astroConfig)) add(name, file);
  }
  return read;
}

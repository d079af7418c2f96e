import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';
import type { LanguageCode } from '../../i18n/languages.ts';

const require = createRequire(import.meta.url);

/** The Noto families the cards are drawn in, each from its npm package (nothing is fetched): its name, and where its package is. */
const FAMILIES = {
  latin: { family: 'Noto Sans', pkg: () => require.resolve('@fontsource/noto-sans/package.json') },
  arabic: { family: 'Noto Sans Arabic', pkg: () => require.resolve('@fontsource/noto-sans-arabic/package.json') },
  hebrew: { family: 'Noto Sans Hebrew', pkg: () => require.resolve('@fontsource/noto-sans-hebrew/package.json') },
  devanagari: { family: 'Noto Sans Devanagari', pkg: () => require.resolve('@fontsource/noto-sans-devanagari/package.json') },
  japanese: { family: 'Noto Sans JP', pkg: () => require.resolve('@fontsource/noto-sans-jp/package.json') },
  korean: { family: 'Noto Sans KR', pkg: () => require.resolve('@fontsource/noto-sans-kr/package.json') },
  chinese: { family: 'Noto Sans SC', pkg: () => require.resolve('@fontsource/noto-sans-sc/package.json') },
} as const;
type Script = keyof typeof FAMILIES;

/**
 * The families a language's card needs, its own script first: Han characters
 * take the Japanese, Korean or Chinese forms by the language, and Latin words
 * in any title fall back to Noto Sans.
 */
const SCRIPTS_OF: Partial<Record<LanguageCode, readonly Script[]>> = {
  ar: ['arabic', 'latin'],
  he: ['hebrew', 'latin'],
  hi: ['devanagari', 'latin'],
  ja: ['japanese', 'latin'],
  ko: ['korean', 'latin'],
  zh: ['chinese', 'latin'],
};

/** The weights the cards use: the title bold, the rest regular. */
const WEIGHTS = ['400', '700'];

const registered = new Map<Script, Promise<void>>();

/** Registers a family's files (every unicode-range subset the package ships, in WEIGHTS) once per process. */
function register(script: Script): Promise<void> {
  let done = registered.get(script);
  if (!done) {
    const { family, pkg } = FAMILIES[script];
    done = (async () => {
      const files = join(dirname(pkg()), 'files');
      const wanted = (await readdir(files)).filter((file) => WEIGHTS.some((weight) => file.endsWith(`-${weight}-normal.woff2`)));
      for (const file of wanted) GlobalFonts.register(await readFile(join(files, file)), family);
    })();
    registered.set(script, done);
    done.catch(() => registered.delete(script));
  }
  return done;
}

/** The CSS font-family list a card in `lang` is drawn with, its fonts registered first. */
export async function cardFonts(lang: LanguageCode): Promise<string> {
  const scripts = SCRIPTS_OF[lang] ?? ['latin'];
  await Promise.all(scripts.map(register));
  return scripts.map((script) => `"${FAMILIES[script].family}"`).join(', ');
}

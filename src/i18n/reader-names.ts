import { LANGUAGE_CODES, type LanguageCode } from './languages.ts';
import { ar } from './reader-names/ar.ts';
import { de } from './reader-names/de.ts';
import { es } from './reader-names/es.ts';
import { fr } from './reader-names/fr.ts';
import { he } from './reader-names/he.ts';
import { hi } from './reader-names/hi.ts';
import { it } from './reader-names/it.ts';
import { ja } from './reader-names/ja.ts';
import { kab } from './reader-names/kab.ts';
import { ko } from './reader-names/ko.ts';
import { pt } from './reader-names/pt.ts';
import { ru } from './reader-names/ru.ts';
import { tr } from './reader-names/tr.ts';
import { zh } from './reader-names/zh.ts';
import { ANIMALS, COLOURS, type AgreeingNames, type Animal, type Colour, type PlainNames } from './reader-names/words.ts';

/** Every language's reader names but English's, which are the stored names themselves. */
const TABLES: Partial<Record<LanguageCode, PlainNames | AgreeingNames<string>>> = {
  fr,
  es,
  pt,
  it,
  de,
  ru,
  ja,
  ko,
  zh,
  ar,
  he,
  hi,
  tr,
  kab,
};

const isColour = (word: string | undefined): word is Colour => (COLOURS as readonly (string | undefined)[]).includes(word);
const isAnimal = (word: string | undefined): word is Animal => (ANIMALS as readonly (string | undefined)[]).includes(word);

/**
 * A reader's name as a page in `lang` shows it, from the English name that is
 * stored ("Teal Otter" is "Loutre turquoise" in French, "青緑のカワウソ" in
 * Japanese): the same reader has the same words everywhere in a language, and
 * the stored name and the API's `author` stay English. A name that is not a
 * colour and an animal of the lists is shown as it is.
 */
export function readerNameIn(name: string, lang: LanguageCode): string {
  const table = TABLES[lang];
  const [colour, animal, ...rest] = name.split(' ');
  if (!table || rest.length > 0 || !isColour(colour) || !isAnimal(animal)) return name;
  const noun = table.animals[animal];
  const [word, gender] = typeof noun === 'string' ? [noun, ''] : noun;
  const forms = table.colours[colour];
  const adjective = typeof forms === 'string' ? forms : (forms[gender] ?? '');
  const joined = table.colourFirst ? `${adjective}${table.between}${word}` : `${word}${table.between}${adjective}`;
  // A name starts with a capital, in the language's own casing (Turkish i is İ).
  return joined.charAt(0).toLocaleUpperCase(lang) + joined.slice(1);
}

let storedNames: Map<string, string> | undefined;

/**
 * The stored (English) name behind a name as any page shows it
 * ("Loutre turquoise", "青緑のカワウソ" and "Teal Otter" are all "Teal
 * Otter"), or null when no reader name reads so. No two names of any
 * languages read alike (a unit test checks it), so the answer is never in doubt.
 */
export function storedReaderName(shown: string): string | null {
  storedNames ??= new Map(
    LANGUAGE_CODES.flatMap((lang) =>
      COLOURS.flatMap((colour) => ANIMALS.map((animal) => [readerNameIn(`${colour} ${animal}`, lang), `${colour} ${animal}`] as const)),
    ),
  );
  return storedNames.get(shown) ?? null;
}

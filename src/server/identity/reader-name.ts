import { ANIMALS, COLOURS } from '../../i18n/reader-names/words.ts';

export const NAME_COUNT = COLOURS.length * ANIMALS.length;

/** The colour-and-animal name of a reader hash: the same hash always gives the same name. */
export function readerName(hash: string): string {
  const bytes = Buffer.from(hash, 'base64url');
  const colour = COLOURS[(bytes[0] ?? 0) % COLOURS.length] ?? COLOURS[0];
  const animal = ANIMALS[(bytes[1] ?? 0) % ANIMALS.length] ?? ANIMALS[0];
  return `${colour} ${animal}`;
}

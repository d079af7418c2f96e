/**
 * The words of reader names (src/server/identity/reader-name.ts): a colour and
 * an animal, stored in English. Their order is the naming itself: a reader's
 * hash picks a colour and an animal by position, so reordering or removing a
 * word renames readers; add new words at the end only.
 */
export const COLOURS = [
  'Amber',
  'Azure',
  'Beige',
  'Black',
  'Blue',
  'Bronze',
  'Brown',
  'Coral',
  'Crimson',
  'Cyan',
  'Emerald',
  'Gold',
  'Green',
  'Grey',
  'Indigo',
  'Ivory',
  'Jade',
  'Khaki',
  'Lavender',
  'Lemon',
  'Lilac',
  'Magenta',
  'Maroon',
  'Mint',
  'Navy',
  'Olive',
  'Orange',
  'Pink',
  'Plum',
  'Red',
  'Silver',
  'Teal',
] as const;

export const ANIMALS = [
  'Albatross',
  'Alpaca',
  'Badger',
  'Bat',
  'Bear',
  'Beaver',
  'Bison',
  'Camel',
  'Cat',
  'Cheetah',
  'Crane',
  'Crow',
  'Deer',
  'Dolphin',
  'Duck',
  'Eagle',
  'Elephant',
  'Falcon',
  'Ferret',
  'Finch',
  'Fox',
  'Frog',
  'Gazelle',
  'Giraffe',
  'Goat',
  'Goose',
  'Gull',
  'Hare',
  'Hawk',
  'Hedgehog',
  'Heron',
  'Horse',
  'Ibex',
  'Jackal',
  'Jaguar',
  'Kingfisher',
  'Koala',
  'Lemur',
  'Leopard',
  'Lion',
  'Lynx',
  'Magpie',
  'Marmot',
  'Mole',
  'Moose',
  'Newt',
  'Otter',
  'Owl',
  'Panda',
  'Parrot',
  'Pelican',
  'Penguin',
  'Puffin',
  'Rabbit',
  'Raven',
  'Robin',
  'Salmon',
  'Seal',
  'Sparrow',
  'Swan',
  'Tiger',
  'Turtle',
  'Walrus',
  'Wolf',
] as const;

export type Colour = (typeof COLOURS)[number];
export type Animal = (typeof ANIMALS)[number];

/** A language whose adjectives do not change with the noun: one word for each colour and each animal. */
export interface PlainNames {
  /** Whether the colour comes before the animal. */
  colourFirst: boolean;
  /** What stands between the two words: a space, or nothing where words are not spaced. */
  between: string;
  colours: Readonly<Record<Colour, string>>;
  animals: Readonly<Record<Animal, string>>;
}

/**
 * A language whose adjectives agree with the noun's gender: each animal with
 * its gender, each colour as one form per gender, or one word where the
 * colour does not change (French "turquoise", Arabic "بيج").
 */
export interface AgreeingNames<Gender extends string> {
  colourFirst: boolean;
  between: string;
  colours: Readonly<Record<Colour, string | Readonly<Record<Gender, string>>>>;
  animals: Readonly<Record<Animal, readonly [string, Gender]>>;
}

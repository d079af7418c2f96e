import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LANGUAGE_CODES } from '../../src/i18n/languages.ts';
import { readerNameIn, storedReaderName } from '../../src/i18n/reader-names.ts';
import { ANIMALS, COLOURS } from '../../src/i18n/reader-names/words.ts';

const EVERY_NAME = COLOURS.flatMap((colour) => ANIMALS.map((animal) => `${colour} ${animal}`));

describe('reader names in the page language', () => {
  test('English shows the stored name; a name that is not a colour and an animal is shown as it is', () => {
    assert.equal(readerNameIn('Teal Otter', 'en'), 'Teal Otter');
    assert.equal(readerNameIn('Otter Teal', 'fr'), 'Otter Teal');
    assert.equal(readerNameIn('Teal Otter Junior', 'fr'), 'Teal Otter Junior');
  });

  for (const lang of LANGUAGE_CODES) {
    test(`${lang}: every colour and animal makes a name of its own, starting with a capital where the script has them`, () => {
      const names = EVERY_NAME.map((name) => readerNameIn(name, lang));
      for (const name of names) {
        assert.doesNotMatch(name, /undefined|^\s|\s$|\s\s/, name);
        assert.equal(name.charAt(0), name.charAt(0).toLocaleUpperCase(lang), name);
      }
      assert.equal(new Set(names).size, EVERY_NAME.length, 'two readers with different names never share one');
    });
  }

  test('word order and agreement follow each language', () => {
    const expected: [string, Parameters<typeof readerNameIn>[1], string][] = [
      ['Teal Otter', 'fr', 'Loutre turquoise'],
      ['Black Otter', 'fr', 'Loutre noire'],
      ['Black Cat', 'fr', 'Chat noir'],
      ['Red Fox', 'es', 'Zorro rojo'],
      ['Red Frog', 'es', 'Rana roja'],
      ['Red Fox', 'pt', 'Raposa vermelha'],
      ['Grey Wolf', 'it', 'Lupo grigio'],
      ['Grey Fox', 'it', 'Volpe grigia'],
      ['Red Fox', 'de', 'Roter Fuchs'],
      ['Red Cat', 'de', 'Rote Katze'],
      ['Red Horse', 'de', 'Rotes Pferd'],
      ['Red Wolf', 'ru', 'Красный волк'],
      ['Red Fox', 'ru', 'Красная лиса'],
      ['Teal Otter', 'ja', '青緑のカワウソ'],
      ['Red Fox', 'ko', '빨간 여우'],
      ['Red Fox', 'zh', '红狐狸'],
      ['Black Wolf', 'ar', 'الذئب الأسود'],
      ['Black Otter', 'ar', 'القضاعة السوداء'],
      ['Black Cat', 'he', 'חתול שחור'],
      ['Black Otter', 'he', 'לוטרה שחורה'],
      ['Blue Horse', 'hi', 'नीला घोड़ा'],
      ['Blue Cat', 'hi', 'नीली बिल्ली'],
      ['Grey Wolf', 'tr', 'Gri kurt'],
      ['Red Jackal', 'kab', 'Uccen azeggaɣ'],
      ['Black Crow', 'kab', 'Tagerfa taberkant'],
    ];
    for (const [stored, lang, shown] of expected) assert.equal(readerNameIn(stored, lang), shown, `${stored} in ${lang}`);
  });

  test('a name as any page shows it leads back to the one stored name: no two names of any languages read alike', () => {
    for (const lang of LANGUAGE_CODES) {
      for (const name of EVERY_NAME) assert.equal(storedReaderName(readerNameIn(name, lang)), name, `${name} in ${lang}`);
    }
    assert.equal(storedReaderName('Loutre turquoise'), 'Teal Otter');
    assert.equal(storedReaderName('Turquoise Loutre'), null);
  });
});

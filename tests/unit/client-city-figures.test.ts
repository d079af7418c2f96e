import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkFigures, type CityFormStrings, type TypedAmount } from '../../src/site/client/city-figures.ts';

const STRINGS: CityFormStrings = {
  sending: 'Sending…',
  thanks: 'Thanks for {city}.',
  chooseCity: 'Pick a city from the list first.',
  rentBelowPay: 'Rent must be lower than net pay.',
  invalid: 'Please check the form: {details}',
  refusals: {},
};

function amounts(netPay: string, rent: string, beerPrice: string): TypedAmount[] {
  return [
    { name: 'netPay', label: 'Monthly net pay', value: netPay },
    { name: 'rent', label: 'Monthly rent', value: rent },
    { name: 'beerPrice', label: 'A beer', value: beerPrice },
  ];
}

describe('the city form’s figures, checked before they are sent', () => {
  test('figures that pass: every amount as a number, by its field', () => {
    assert.deepEqual(checkFigures('2657896', amounts('6200', '2100.50', '8'), STRINGS), {
      refusal: null,
      amounts: { netPay: 6200, rent: 2100.5, beerPrice: 8 },
    });
  });

  test('no city picked from the list: said first, the city field focused', () => {
    assert.deepEqual(checkFigures('', amounts('', '', ''), STRINGS), {
      refusal: { message: 'Pick a city from the list first.', field: 'city' },
    });
  });

  test('an amount empty, zero, negative or no number: each named, the first focused', () => {
    assert.deepEqual(checkFigures('1', amounts('', '800', 'six'), STRINGS), {
      refusal: { message: 'Please check the form: Monthly net pay, A beer', field: 'netPay' },
    });
    assert.deepEqual(checkFigures('1', amounts('2400', '0', '-1'), STRINGS), {
      refusal: { message: 'Please check the form: Monthly rent, A beer', field: 'rent' },
    });
  });

  test('rent as high as net pay or higher', () => {
    const refused = { refusal: { message: 'Rent must be lower than net pay.', field: null } };
    assert.deepEqual(checkFigures('1', amounts('2000', '2000', '5'), STRINGS), refused);
    assert.deepEqual(checkFigures('1', amounts('2000', '2500', '5'), STRINGS), refused);
  });
});

import { validateSync } from 'class-validator';
import { IsPrice } from './is-price.decorator.js';

class Priced {
  @IsPrice()
  price: unknown;
}

const errors = (price: unknown) => validateSync(Object.assign(new Priced(), { price })).map((e) => e.constraints);

describe('IsPrice', () => {
  it.each([0, 1, 24.9, 0.01, 999_999.99, 1e21])('should accept %p', (price) => {
    expect(errors(price)).toEqual([]);
  });

  it.each([1.234, 0.001, 1e-7, 5e-324, 0.1 + 0.2, Number.NaN, Infinity, '10', null, { toString: () => '1' }])(
    'should refuse %p without throwing',
    (price) => {
      expect(errors(price)).toEqual([{ isPrice: 'price must be a number conforming to the specified constraints' }]);
    },
  );
});

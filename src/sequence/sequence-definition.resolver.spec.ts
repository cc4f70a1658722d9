import { SequenceConfigError } from './sequence-config.error.js';
import { SequenceFormatError } from './sequence-format.error.js';
import { resolveSequenceDefinition, toBlockSize, toInteger } from './sequence-definition.resolver.js';
import type { SequenceDefinition } from './sequence-definition.interface.js';

describe('resolveSequenceDefinition', () => {
  it('should apply every default', () => {
    const def = resolveSequenceDefinition('orders', undefined, undefined, 'UTC');
    expect({ ...def, format: def.format.pattern }).toEqual({
      name: 'orders',
      start: 1n,
      step: 1n,
      format: '{seq}',
      resetEvery: 'never',
      timeZone: 'UTC',
      cache: 0,
      bigint: false,
    });
  });

  it('should let a definition override the module defaults, and the defaults override the built-ins', () => {
    const def = resolveSequenceDefinition(
      'orders',
      { step: 10, format: 'O-{seq}' },
      { start: 1000, step: 5, timeZone: 'Europe/Prague', resetEvery: 'year' },
      'UTC',
    );
    expect({ ...def, format: def.format.pattern }).toEqual({
      name: 'orders',
      start: 1000n,
      step: 10n,
      format: 'O-{seq}',
      resetEvery: 'year',
      timeZone: 'Europe/Prague',
      cache: 0,
      bigint: false,
    });
  });

  it('should accept bigint start beyond 2^53 in bigint mode', () => {
    expect(resolveSequenceDefinition('big', { start: 2n ** 60n, bigint: true }, undefined, 'UTC').start).toBe(
      2n ** 60n,
    );
  });

  it.each<[string, SequenceDefinition, RegExp]>([
    ['step 0', { step: 0 }, /^Sequence "orders": step must be a positive integer, got 0\./],
    ['negative step', { step: -1 }, /step must be a positive integer, got -1/],
    ['fractional step', { step: 1.5 }, /^Sequence "orders": step must be an integer \(number or bigint\), got 1\.5\.$/],
    ['string step', { step: '2' as unknown as number }, /step must be an integer \(number or bigint\), got string/],
    ['fractional start', { start: 0.5 }, /start must be an integer/],
    ['NaN start', { start: NaN }, /start must be an integer \(number or bigint\), got NaN/],
    ['unsafe start', { start: 2 ** 53 }, /start 9007199254740992 is beyond Number.MAX_SAFE_INTEGER.*bigint: true/],
    ['bigint start beyond 2^53', { start: 2n ** 53n }, /start 9007199254740992 is beyond .*\{ bigint: true \}/],
    ['start beyond int64', { start: 2n ** 63n, bigint: true }, /does not fit in the int64/],
    ['cache 0.5', { cache: 0.5 }, /cache must be an integer from 1 to 1,000,000, got 0\.5/],
    ['negative cache', { cache: -1 }, /cache must be an integer from 1 to 1,000,000/],
    ['huge cache', { cache: 1_000_001 }, /cache must be an integer from 1 to 1,000,000/],
    [
      'bad resetEvery',
      { resetEvery: 'week' as 'year' },
      /resetEvery must be one of 'never', 'year', 'month', 'day', got "week"/,
    ],
    ['bad time zone', { timeZone: 'Mars/Olympus' }, /unknown time zone "Mars\/Olympus"/],
    ['bad bigint flag', { bigint: 'yes' as unknown as boolean }, /bigint must be true or false/],
    [
      'typo in option',
      { resetevery: 'year' } as SequenceDefinition,
      /unknown option "resetevery" in its definition; known options are start, step/,
    ],
  ])('should reject %s', (_label, definition, message) => {
    expect(() => resolveSequenceDefinition('orders', definition, undefined, 'UTC')).toThrow(SequenceConfigError);
    expect(() => resolveSequenceDefinition('orders', definition, undefined, 'UTC')).toThrow(message);
  });

  it('should name the sequence, the token and its index for a bad format', () => {
    let caught: unknown;
    try {
      resolveSequenceDefinition('orders', { format: 'ORD-{YYYY}-{sq:6}' }, undefined, 'UTC');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SequenceFormatError);
    expect((caught as SequenceFormatError).message).toMatch(
      /^Sequence "orders": Invalid sequence format "ORD-\{YYYY\}-\{sq:6\}": unknown token "\{sq:6\}" at index 11\./,
    );
    expect((caught as SequenceFormatError).index).toBe(11);
  });

  it.each([[''], ['a.b'], ['a:b'], ['$x']])('should reject the name %j', (name) => {
    expect(() => resolveSequenceDefinition(name, {}, undefined, 'UTC')).toThrow(SequenceConfigError);
  });

  it('should use the label in messages about the defaults', () => {
    expect(() => resolveSequenceDefinition('defaults', undefined, { step: 0 }, 'UTC', 'sequences.defaults')).toThrow(
      /^sequences\.defaults: step must be a positive integer/,
    );
  });
});

describe('toInteger', () => {
  it.each([
    [5, false, 5n],
    [-5, false, -5n],
    [5n, false, 5n],
    [2n ** 62n, true, 2n ** 62n],
    [Number.MAX_SAFE_INTEGER, false, 9007199254740991n],
  ])('should convert %p (bigint mode %p) to %p', (value, mode, expected) => {
    expect(toInteger('value', value, mode)).toBe(expected);
  });
});

describe('toBlockSize', () => {
  it.each([[0], [-1], [1.5], [1_000_001], ['5'], [5n]])('should reject %p', (size) => {
    expect(() => toBlockSize('nextBlock() size', size)).toThrow(
      /^nextBlock\(\) size must be an integer from 1 to 1,000,000, got /,
    );
  });

  it.each([[1], [100], [1_000_000]])('should accept %p', (size) => {
    expect(toBlockSize('n', size)).toBe(size);
  });
});

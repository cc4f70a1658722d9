import { Buffer } from 'node:buffer';

/**
 * Bad inputs shared by the pipe and validator specs, each with the exact
 * detail the error message must carry (after the "Validation failed" prefix).
 */
export const INVALID_OBJECT_IDS: ReadonlyArray<[label: string, value: unknown, detail: string]> = [
  // types
  ['a number', 123456789012, 'received a number, expected a string of 24 hex characters'],
  ['zero', 0, 'received a number, expected a string of 24 hex characters'],
  ['NaN', Number.NaN, 'received a number, expected a string of 24 hex characters'],
  ['a bigint', 10n, 'received a bigint, expected a string of 24 hex characters'],
  ['true', true, 'received a boolean, expected a string of 24 hex characters'],
  ['false', false, 'received a boolean, expected a string of 24 hex characters'],
  ['an empty object', {}, 'received an object, expected a string of 24 hex characters'],
  ['an $gt operator', { $gt: '' }, 'received an object, expected a string of 24 hex characters'],
  ['an $ne operator', { $ne: null }, 'received an object, expected a string of 24 hex characters'],
  ['a $where operator', { $where: 'sleep(1000)' }, 'received an object, expected a string of 24 hex characters'],
  [
    'an object wrapping an id',
    { id: '507f1f77bcf86cd799439011' },
    'received an object, expected a string of 24 hex characters',
  ],
  [
    'extended JSON $oid',
    { $oid: '507f1f77bcf86cd799439011' },
    'received an object, expected a string of 24 hex characters',
  ],
  [
    'a fake _bsontype tag',
    { _bsontype: 'ObjectId', id: 'x' },
    'received an object, expected a string of 24 hex characters',
  ],
  [
    'a __proto__ key',
    JSON.parse('{"__proto__":{"polluted":true}}'),
    'received an object, expected a string of 24 hex characters',
  ],
  [
    'a constructor key',
    { constructor: { prototype: {} } },
    'received an object, expected a string of 24 hex characters',
  ],
  ['an array of one id', ['507f1f77bcf86cd799439011'], 'received an array, expected a string of 24 hex characters'],
  ['an empty array', [], 'received an array, expected a string of 24 hex characters'],
  ['a 12-byte Buffer', Buffer.alloc(12), 'received an object, expected a string of 24 hex characters'],
  ['a Date', new Date(0), 'received an object, expected a string of 24 hex characters'],
  ['a symbol', Symbol('id'), 'received a symbol, expected a string of 24 hex characters'],
  ['a function', () => '507f1f77bcf86cd799439011', 'received a function, expected a string of 24 hex characters'],
  // lengths
  ['3 characters', 'abc', '"abc" is 3 characters long, expected 24 hex characters'],
  ['1 character', 'a', '"a" is 1 character long, expected 24 hex characters'],
  [
    '12 characters (bson 4/5 took them as bytes)',
    'aaaaaaaaaaaa',
    '"aaaaaaaaaaaa" is 12 characters long, expected 24 hex characters',
  ],
  ['12 arbitrary characters', 'hello world!', '"hello world!" is 12 characters long, expected 24 hex characters'],
  [
    '23 hex characters',
    '507f1f77bcf86cd79943901',
    '"507f1f77bcf86cd79943901" is 23 characters long, expected 24 hex characters',
  ],
  [
    '25 hex characters',
    '507f1f77bcf86cd7994390111',
    '"507f1f77bcf86cd7994390111" is 25 characters long, expected 24 hex characters',
  ],
  [
    'a UUID',
    '550e8400-e29b-41d4-a716-446655440000',
    '"550e8400-e29b-41d4-a716-44665544"… (36 characters) is 36 characters long, expected 24 hex characters',
  ],
  [
    'a 10 KB string',
    'a'.repeat(10_000),
    '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"… (10000 characters) is 10000 characters long, expected 24 hex characters',
  ],
  ['the string "null"', 'null', '"null" is 4 characters long, expected 24 hex characters'],
  ['the string "undefined"', 'undefined', '"undefined" is 9 characters long, expected 24 hex characters'],
  // whitespace and prefixes
  [
    'a leading space',
    ' 507f1f77bcf86cd799439011',
    '" 507f1f77bcf86cd799439011" has surrounding whitespace, expected exactly 24 hex characters',
  ],
  [
    'a trailing newline',
    '507f1f77bcf86cd799439011\n',
    '"507f1f77bcf86cd799439011\\u000a" has surrounding whitespace, expected exactly 24 hex characters',
  ],
  [
    'a trailing tab',
    '507f1f77bcf86cd799439011\t',
    '"507f1f77bcf86cd799439011\\u0009" has surrounding whitespace, expected exactly 24 hex characters',
  ],
  [
    '0x + 24 hex',
    '0x507f1f77bcf86cd799439011',
    '"0x507f1f77bcf86cd799439011" starts with "0x", expected the 24 hex characters without a prefix',
  ],
  [
    '0x + 22 hex (passes @IsMongoId)',
    '0x507f1f77bcf86cd7994390',
    '"0x507f1f77bcf86cd7994390" has a non-hex character "x" at position 1, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'an inner space',
    '507f1f77bcf8 cd799439011',
    '"507f1f77bcf8 cd799439011" has a non-hex character " " at position 12, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'an inner space at 24',
    '507f1f77bcf8 6cd799439011',
    '"507f1f77bcf8 6cd799439011" is 25 characters long, expected 24 hex characters',
  ],
  // non-hex characters, 24 long
  [
    'a g',
    '507f1f77bcf86cd79943901g',
    '"507f1f77bcf86cd79943901g" has a non-hex character "g" at position 23, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'a Z first',
    'Z07f1f77bcf86cd799439011',
    '"Z07f1f77bcf86cd799439011" has a non-hex character "Z" at position 0, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'a dash',
    '507f1f77-bcf86cd79943901',
    '"507f1f77-bcf86cd79943901" has a non-hex character "-" at position 8, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'a NUL byte',
    '507f1f77bcf86cd79943901\u0000',
    '"507f1f77bcf86cd79943901\\u0000" has a non-hex character "\\u0000" at position 23, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'a dollar sign',
    '$07f1f77bcf86cd799439011',
    '"$07f1f77bcf86cd799439011" has a non-hex character "$" at position 0, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'a dot',
    '507f1f77bcf86cd79943901.',
    '"507f1f77bcf86cd79943901." has a non-hex character "." at position 23, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'a quote',
    '507f1f77bcf86cd79943901"',
    '"507f1f77bcf86cd79943901\\"" has a non-hex character "\\"" at position 23, expected 24 hex characters (0-9, a-f)',
  ],
  // unicode look-alikes
  [
    'full-width digits',
    '５０７f1f77bcf86cd799439011',
    '"\\uff15\\uff10\\uff17f1f77bcf86cd799439011" has a non-hex character "\\uff15" at position 0, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'Arabic-Indic digit',
    '٥07f1f77bcf86cd799439011',
    '"\\u066507f1f77bcf86cd799439011" has a non-hex character "\\u0665" at position 0, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'Cyrillic а',
    '507f1f77bcf86cd79943901а',
    '"507f1f77bcf86cd79943901\\u0430" has a non-hex character "\\u0430" at position 23, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'a zero-width space',
    '507f1f77bcf86cd79943901\u200b',
    '"507f1f77bcf86cd79943901\\u200b" has a non-hex character "\\u200b" at position 23, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'a bidi override',
    '\u202e07f1f77bcf86cd799439011',
    '"\\u202e07f1f77bcf86cd799439011" has a non-hex character "\\u202e" at position 0, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'an emoji (24 UTF-16 units)',
    '507f1f77bcf86cd7994390😀',
    '"507f1f77bcf86cd7994390\\ud83d\\ude00" is 23 characters long, expected 24 hex characters',
  ],
  [
    'an emoji (24 code points)',
    '507f1f77bcf86cd79943901😀',
    '"507f1f77bcf86cd79943901\\ud83d\\ude00" has a non-hex character "\\ud83d\\ude00" at position 23, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'a lone surrogate',
    '507f1f77bcf86cd79943901\ud800',
    '"507f1f77bcf86cd79943901\\ud800" has a non-hex character "\\ud800" at position 23, expected 24 hex characters (0-9, a-f)',
  ],
  [
    'an escape sequence',
    '\u001b[31m507f1f77bcf86cd7994',
    '"\\u001b[31m507f1f77bcf86cd7994" has a non-hex character "\\u001b" at position 0, expected 24 hex characters (0-9, a-f)',
  ],
];

/** Values every strict ObjectId check accepts, with their canonical lowercase hex. */
export const VALID_OBJECT_ID_STRINGS: ReadonlyArray<[input: string, hex: string]> = [
  ['507f1f77bcf86cd799439011', '507f1f77bcf86cd799439011'],
  ['507F1F77BCF86CD799439011', '507f1f77bcf86cd799439011'],
  ['507f1F77bCf86cD799439011', '507f1f77bcf86cd799439011'],
  ['000000000000000000000000', '000000000000000000000000'],
  ['ffffffffffffffffffffffff', 'ffffffffffffffffffffffff'],
  ['6553f1003f2a91c8d4003039', '6553f1003f2a91c8d4003039'],
];

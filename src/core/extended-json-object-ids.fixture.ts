import { Buffer } from 'node:buffer';
import { ObjectId } from './bson.cjs';

const ID = '507f1f77bcf86cd799439011';
const EXPECTED = 'expected a string of 24 hex characters or {"$oid": "<24 hex characters>"}';

/** `{"$oid": …}` inputs `allowExtendedJson` accepts, with the hex they stand for. */
export const VALID_EXTENDED_JSON: ReadonlyArray<[label: string, value: object, hex: string]> = [
  ['a literal', { $oid: ID }, ID],
  ['upper case hex', { $oid: ID.toUpperCase() }, ID],
  ['parsed from JSON', JSON.parse(`{"$oid":"${ID}"}`) as object, ID],
  ['a null-prototype object', Object.assign(Object.create(null) as object, { $oid: ID }), ID],
  ['the max id', { $oid: 'ffffffffffffffffffffffff' }, 'ffffffffffffffffffffffff'],
];

/** A `$oid` behind a getter that would run code on every read. */
const withGetter = Object.defineProperty({}, '$oid', { get: () => ID, enumerable: true });
/** A hidden second key: not enumerable, so `Object.keys` alone would miss it. */
const withHiddenToString = Object.defineProperty({ $oid: ID }, 'toString', { value: () => ID, enumerable: false });
const withHiddenOid = Object.defineProperty({}, '$oid', { value: ID, enumerable: false });
const withSymbol = { $oid: ID, [Symbol('x')]: 1 };
const inherited = Object.create({ $oid: ID }) as object;
class Wrapper {
  $oid = ID;
}
const proxied = new Proxy({ $oid: ID }, {});

/**
 * Objects `allowExtendedJson` still refuses, with the exact detail of the
 * message (after the "Validation failed (ObjectId is expected): " prefix).
 */
export const INVALID_EXTENDED_JSON: ReadonlyArray<[label: string, value: unknown, detail: string]> = [
  // shape
  ['an empty object', {}, `received an empty object, ${EXPECTED}`],
  [
    'an $oid with a $where',
    { $oid: ID, $where: 'sleep(1000)' },
    'received {"$oid": …} with key "$where" besides "$oid", expected "$oid" as its only key',
  ],
  [
    'an $oid with an $ne',
    { $ne: null, $oid: ID },
    'received {"$oid": …} with key "$ne" besides "$oid", expected "$oid" as its only key',
  ],
  ['a $where alone', { $where: 'sleep(1000)' }, `received an object with key "$where" but no "$oid", ${EXPECTED}`],
  ['an $gt operator', { $gt: '' }, `received an object with key "$gt" but no "$oid", ${EXPECTED}`],
  ['a $OID key (wrong case)', { $OID: ID }, `received an object with key "$OID" but no "$oid", ${EXPECTED}`],
  ['an oid key without $', { oid: ID }, `received an object with key "oid" but no "$oid", ${EXPECTED}`],
  ['a key with a space', { '$oid ': ID }, `received an object with key "$oid " but no "$oid", ${EXPECTED}`],
  [
    'a __proto__ key from JSON',
    JSON.parse(`{"__proto__":{"$oid":"${ID}"}}`),
    `received an object with key "__proto__" but no "$oid", ${EXPECTED}`,
  ],
  [
    '$oid and a __proto__ key',
    JSON.parse(`{"$oid":"${ID}","__proto__":{}}`),
    'received {"$oid": …} with key "__proto__" besides "$oid", expected "$oid" as its only key',
  ],
  [
    'a constructor key',
    { constructor: { prototype: { $oid: ID } } },
    `received an object with key "constructor" but no "$oid", ${EXPECTED}`,
  ],
  [
    'five extra keys',
    { $oid: ID, a: 1, b: 2, c: 3, d: 4, e: 5 },
    'received {"$oid": …} with keys "a", "b", "c" and 2 more besides "$oid", expected "$oid" as its only key',
  ],
  [
    'an own toString',
    { $oid: ID, toString: () => ID },
    'received {"$oid": …} with key "toString" besides "$oid", expected "$oid" as its only key',
  ],
  [
    'an own valueOf',
    { $oid: ID, valueOf: () => ID },
    'received {"$oid": …} with key "valueOf" besides "$oid", expected "$oid" as its only key',
  ],
  [
    'a hidden own toString',
    withHiddenToString,
    'received {"$oid": …} with key "toString" besides "$oid", expected "$oid" as its only key',
  ],
  [
    'a symbol key',
    withSymbol,
    'received {"$oid": …} with key a symbol key besides "$oid", expected "$oid" as its only key',
  ],
  ['a getter', withGetter, `received {"$oid": …} whose "$oid" is not a plain value, ${EXPECTED}`],
  ['a non-enumerable $oid', withHiddenOid, `received {"$oid": …} whose "$oid" is not a plain value, ${EXPECTED}`],
  ['an inherited $oid', inherited, `received an object that is not plain JSON data, ${EXPECTED}`],
  ['a class instance', new Wrapper(), `received an object that is not plain JSON data, ${EXPECTED}`],
  ['a Proxy', proxied, `received an object that is not plain JSON data, ${EXPECTED}`],
  ['a Date', new Date(0), `received an object that is not plain JSON data, ${EXPECTED}`],
  ['a 12-byte Buffer', Buffer.alloc(12), `received an object that is not plain JSON data, ${EXPECTED}`],
  ['an array of one', [{ $oid: ID }], `received an array, ${EXPECTED}`],
  ['an array of the key and value', ['$oid', ID], `received an array, ${EXPECTED}`],
  // value
  [
    'a nested $oid',
    { $oid: { $oid: ID } },
    'in {"$oid": …}, received an object, expected a string of 24 hex characters',
  ],
  [
    'an ObjectId instance as value',
    { $oid: new ObjectId(ID) },
    'in {"$oid": …}, received an object (ObjectId instances are not accepted here), expected a string of 24 hex characters',
  ],
  ['an array as value', { $oid: [ID] }, 'in {"$oid": …}, received an array, expected a string of 24 hex characters'],
  ['a number as value', { $oid: 123 }, 'in {"$oid": …}, received a number, expected a string of 24 hex characters'],
  ['null as value', { $oid: null }, 'in {"$oid": …}, no value was given, expected 24 hex characters'],
  ['an empty string as value', { $oid: '' }, 'in {"$oid": …}, no value was given, expected 24 hex characters'],
  ['a short string', { $oid: 'abc' }, 'in {"$oid": …}, "abc" is 3 characters long, expected 24 hex characters'],
  [
    '12 characters',
    { $oid: 'aaaaaaaaaaaa' },
    'in {"$oid": …}, "aaaaaaaaaaaa" is 12 characters long, expected 24 hex characters',
  ],
  [
    'a 0x prefix',
    { $oid: `0x${ID}` },
    `in {"$oid": …}, "0x${ID}" starts with "0x", expected the 24 hex characters without a prefix`,
  ],
  [
    'surrounding whitespace',
    { $oid: ` ${ID}` },
    `in {"$oid": …}, " ${ID}" has surrounding whitespace, expected exactly 24 hex characters`,
  ],
  [
    'a non-hex character',
    { $oid: `${ID.slice(0, 23)}g` },
    `in {"$oid": …}, "${ID.slice(0, 23)}g" has a non-hex character "g" at position 23, expected 24 hex characters (0-9, a-f)`,
  ],
  [
    'a String object',
    { $oid: new String(ID) },
    'in {"$oid": …}, received an object, expected a string of 24 hex characters',
  ],
];

import { types } from 'node:util';
import { previewString } from './preview-string.js';

/** What every refusal of an object says is expected instead. */
export const EXTENDED_JSON_EXPECTED = 'expected a string of 24 hex characters or {"$oid": "<24 hex characters>"}';

const HEX24 = /^[0-9a-fA-F]{24}$/;

/** Keys named in a message at most, so an object with 10,000 keys gives a short one. */
const KEYS_SHOWN = 3;

/** Why an object is not an extended JSON ObjectId: a sentence, or the bad value its `$oid` holds. */
export type ExtendedJsonFault = { message: string } | { oid: unknown };

/**
 * Reads MongoDB extended JSON `{"$oid": "<24 hex>"}` (what mongoexport, Compass
 * and EJSON clients send) and returns its hex, or says why `value` is not one.
 *
 * Strict, because the same body slot is where operator injection arrives: a
 * plain object (prototype `Object.prototype` or `null`, not a Proxy) whose one
 * and only own key, enumerable or not, string or symbol, is `$oid`, held as a
 * data property (no getter) whose value is a primitive string of exactly 24 hex
 * characters. So `{"$oid": …, "$where": …}`, `{"$oid": {"$oid": …}}`, own
 * `toString`/`valueOf`, arrays, class instances and `__proto__` keys are all refused.
 */
export function readExtendedJsonObjectId(value: object): string | ExtendedJsonFault {
  if (Array.isArray(value)) return { message: `received an array, ${EXTENDED_JSON_EXPECTED}` };
  const prototype: unknown = types.isProxy(value) ? undefined : Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    return { message: `received an object that is not plain JSON data, ${EXTENDED_JSON_EXPECTED}` };
  }
  const keys = Reflect.ownKeys(value);
  if (keys.length === 0) return { message: `received an empty object, ${EXTENDED_JSON_EXPECTED}` };
  if (!keys.includes('$oid')) {
    return { message: `received an object with ${describeKeys(keys)} but no "$oid", ${EXTENDED_JSON_EXPECTED}` };
  }
  if (keys.length > 1) {
    const others = keys.filter((key) => key !== '$oid');
    return {
      message: `received {"$oid": …} with ${describeKeys(others)} besides "$oid", expected "$oid" as its only key`,
    };
  }
  const descriptor = Object.getOwnPropertyDescriptor(value, '$oid');
  if (descriptor === undefined || !('value' in descriptor) || !descriptor.enumerable) {
    return { message: `received {"$oid": …} whose "$oid" is not a plain value, ${EXTENDED_JSON_EXPECTED}` };
  }
  const oid: unknown = descriptor.value;
  return typeof oid === 'string' && HEX24.test(oid) ? oid : { oid };
}

/** `key "a"` or `keys "a", "b", "c" and 7 more`, each escaped and truncated. */
function describeKeys(keys: ReadonlyArray<string | symbol>): string {
  const shown = keys
    .slice(0, KEYS_SHOWN)
    .map((key) => (typeof key === 'symbol' ? 'a symbol key' : previewString(key)))
    .join(', ');
  const more = keys.length > KEYS_SHOWN ? ` and ${keys.length - KEYS_SHOWN} more` : '';
  return `${keys.length === 1 ? 'key' : 'keys'} ${shown}${more}`;
}

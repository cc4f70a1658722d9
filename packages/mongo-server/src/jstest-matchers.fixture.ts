/**
 * Jest matchers for the conformance specs ported from mongod's jstests, over
 * results rendered by `bsonText` (`int 5`, `long 5`, `double 2.5`, …): the
 * shell's ways of comparing numbers, and a list of accepted error codes.
 */

/** A Jest asymmetric matcher over the `<type> <text>` of a result. */
export function matcher(description: string, test: (type: string, text: string) => boolean) {
  return {
    $$typeof: Symbol.for('jest.asymmetricMatcher'),
    asymmetricMatch: (actual: unknown) => {
      if (typeof actual !== 'string') return false;
      const space = actual.indexOf(' ');
      return space > 0 && test(actual.slice(0, space), actual.slice(space + 1));
    },
    toAsymmetricMatcher: () => description,
  };
}

/**
 * Whether a number of BSON type `type` written `text` is `expected`; whole
 * values are compared exactly (a long by its digits, a double by its binary
 * value), so that a value given as text is checked past a double's 53 bits.
 */
function sameNumber(type: string, text: string, expected: number | string): boolean {
  const actual = Number(text);
  const wanted = Number(expected);
  if (Number.isNaN(wanted)) return Number.isNaN(actual);
  if (!Number.isInteger(wanted) || !Number.isInteger(actual)) return actual === wanted;
  const exact = type === 'double' ? BigInt(actual) : BigInt(text);
  return exact === (typeof expected === 'string' ? BigInt(expected) : BigInt(wanted));
}

/** An int, long or double of exactly that value, for a source that compares scalars with the shell's `==`. */
export const numberOf = (expected: number | string) =>
  matcher(`a number of the value ${expected}`, (type, text) =>
    ['int', 'long', 'double'].includes(type) ? sameNumber(type, text, expected) : false,
  );

/** An int or a double of that value, for a source that compares documents or arrays (`tojson`). */
export const intOrDouble = (expected: number) =>
  matcher(`an int or a double of the value ${expected}`, (type, text) =>
    ['int', 'double'].includes(type) ? Number(text) === expected : false,
  );

/** Any of the codes the source accepts (a source may list the classic engine's and SBE's). */
export function oneOf(codes: number | number[]) {
  const list = Array.isArray(codes) ? codes : [codes];
  return {
    $$typeof: Symbol.for('jest.asymmetricMatcher'),
    asymmetricMatch: (actual: unknown) => list.includes(actual as number),
    toAsymmetricMatcher: () => `one of ${list.join(', ')}`,
  };
}

import { SequenceFormat } from './sequence-format.js';
import { SequenceFormatError } from './sequence-format.error.js';
import { SequenceConfigError } from './sequence-config.error.js';

const date = { year: '2026', month: '03', day: '05' };

describe('SequenceFormat', () => {
  describe('render', () => {
    it.each([
      ['{seq}', 42n, undefined, '42'],
      ['ORD-{YYYY}-{seq:6}', 42n, undefined, 'ORD-2026-000042'],
      ['INV/{YY}{MM}{DD}/{seq:4}', 7n, undefined, 'INV/260305/0007'],
      ['{scope}-{seq:3}', 5n, 'tenant-42', 'tenant-42-005'],
      ['{{{seq}}}', 9n, undefined, '{9}'],
      ['a}}b{{c{seq}', 1n, undefined, 'a}b{c1'],
      ['{seq:3}', 123456n, undefined, '123456'],
      ['{seq:2}', -5n, undefined, '-05'],
      ['{seq:20}', 2n ** 60n, undefined, '01152921504606846976'],
      ['{seq}-{seq:2}', 3n, undefined, '3-03'],
      ['{seq}', 0n, undefined, '0'],
    ])('should render %j with seq %s and scope %s as %j', (pattern, seq, scope, expected) => {
      expect(SequenceFormat.parse(pattern).render({ seq, date, scope })).toBe(expected);
    });

    it('should print a value wider than its padding in full', () => {
      expect(SequenceFormat.parse('{seq:2}').render({ seq: 1000n, date })).toBe('1000');
    });
  });

  describe('usesScope', () => {
    it.each([
      ['{scope}-{seq}', true],
      ['{seq}', false],
      ['{{scope}}{seq}', false],
    ])('should be %s for %j', (pattern, expected) => {
      expect(SequenceFormat.parse(pattern).usesScope).toBe(expected === true);
    });
  });

  describe('parse errors', () => {
    it.each([
      ['ORD-{YYY}-{seq}', '{YYY}', 4, 'unknown token "{YYY}" at index 4'],
      ['{seq', '{', 0, 'unclosed "{" at index 0'],
      ['x{seq{seq}', '{', 1, 'unclosed "{" at index 1'],
      ['{seq}}', '}', 5, 'unmatched "}" at index 5'],
      ['}{seq}', '}', 0, 'unmatched "}" at index 0'],
      ['{}{seq}', '{}', 0, 'unknown token "{}" at index 0'],
      ['{seq:0}', '{seq:0}', 0, 'padding width of "{seq:0}" must be an integer from 1 to 32 at index 0'],
      ['{seq:33}', '{seq:33}', 0, 'padding width of "{seq:33}" must be an integer from 1 to 32 at index 0'],
      ['{seq:x}', '{seq:x}', 0, 'padding width of "{seq:x}"'],
      ['{seq:1000}', '{seq:1000}', 0, 'padding width of "{seq:1000}"'],
      ['{seq: 3}', '{seq: 3}', 0, 'padding width of "{seq: 3}"'],
      ['ORD-{yyyy}-{seq}', '{yyyy}', 4, 'unknown token "{yyyy}" at index 4'],
      ['ORD-{YYYY}', '', 10, 'has no {seq} token'],
      ['', '', 0, 'has no {seq} token'],
      ['{{seq}}', '', 7, 'has no {seq} token'],
    ])('should reject %j naming %j at index %i', (pattern, token, index, message) => {
      let caught: unknown;
      try {
        SequenceFormat.parse(pattern);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SequenceFormatError);
      expect(caught).toBeInstanceOf(SequenceConfigError);
      expect(caught).toBeInstanceOf(TypeError);
      const error = caught as SequenceFormatError;
      expect({ token: error.token, index: error.index, pattern: error.pattern }).toEqual({ token, index, pattern });
      expect(error.message).toContain(message);
      expect(error.message).toContain('write {{ and }} for literal braces');
    });

    it('should reject a pattern that is not a string', () => {
      expect(() => SequenceFormat.parse(42 as unknown as string)).toThrow(/must be a string, got number/);
    });
  });
});

import { isPlainText } from './is-plain-text.decorator.js';

describe('isPlainText', () => {
  it.each(['Kitchen', 'Crème Brûlée Set', '台所', '부엌', 'Ĺahký čaj 🍵', 'a b', "O'Brien & Sons (2026)"])(
    'should accept %j',
    (value) => {
      expect(isPlainText(value)).toBe(true);
    },
  );

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a newline', 'a\nb'],
    ['a tab', 'a\tb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a right-to-left override', 'invoice\u202Efdp.exe'],
    ['a bidi isolate', 'a\u2066b\u2069'],
    ['a zero-width space', 'a\u200bb'],
    ['a byte order mark', '\ufeffname'],
    ['a lone high surrogate', 'a\ud83cb'],
    ['a lone low surrogate', 'a\udf75b'],
    ['a number', 42],
  ])('should refuse %s', (_label, value) => {
    expect(isPlainText(value)).toBe(false);
  });
});

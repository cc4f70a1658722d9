import { boundErrorMessage, ERROR_MESSAGE_LIMITS } from './bounded-error-message.js';

const limits = { maxMessages: 3, maxLength: 10 };
const more = (n: number) => `…and ${n} more; correct these and send the request again`;

describe('boundErrorMessage', () => {
  describe('when the message is within bounds', () => {
    it.each([['short'], [['a', 'b', 'c']], [[]], [undefined], [{ field: ['x'] }], [['0123456789']]])(
      'should return %j itself',
      (message) => {
        expect(boundErrorMessage(message, limits)).toBe(message);
      },
    );
  });

  describe('when the message is over bounds', () => {
    it.each([
      ['a long string', '0123456789X', '012345678…'],
      ['a long message in a list', ['ok', '0123456789X'], ['ok', '012345678…']],
      ['a list of 5', ['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', more(2)]],
      ['a list of 4 long ones', ['0123456789X', 'b', 'c', 'd'], ['012345678…', 'b', 'c', more(1)]],
      ['a cut through a surrogate pair', '01234567\ud83c\udf55X', '01234567…'],
      ['non-strings in a long list', [1, null, 'c', 'd'], [1, null, 'c', more(1)]],
    ])('should bound %s', (_label, message, bounded) => {
      expect(boundErrorMessage(message, limits)).toEqual(bounded);
    });
  });

  it('should bound to ERROR_MESSAGE_LIMITS by default: 20 messages of 500 characters, then a count', () => {
    const bounded = boundErrorMessage(Array.from({ length: 2000 }, () => 'x'.repeat(1000))) as string[];
    expect(bounded).toHaveLength(ERROR_MESSAGE_LIMITS.maxMessages + 1);
    expect(bounded[0]).toBe(`${'x'.repeat(499)}…`);
    expect(bounded[20]).toBe(more(1980));
  });
});

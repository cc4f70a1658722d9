import { comparePositions, decodeResumeToken, encodeResumeToken, type ResumeTokenData } from './resume-token.js';

describe('resume tokens', () => {
  const time = (seconds: number, increment: number) => (BigInt(seconds) << 32n) | BigInt(increment);

  it.each<ResumeTokenData>([
    { time: time(1, 1), opIndex: 0, kind: 'highWaterMark', fromInvalidate: false },
    { time: time(1_700_000_000, 7), opIndex: 0, kind: 'event', fromInvalidate: false },
    { time: time(1_700_000_000, 7), opIndex: 300, kind: 'event', fromInvalidate: true },
    { time: time(2 ** 32 - 1, 2 ** 32 - 1), opIndex: 2 ** 31 - 1, kind: 'event', fromInvalidate: false },
  ])('decodes what it encodes: %o', (data) => {
    expect(decodeResumeToken(encodeResumeToken(data))).toEqual(data);
  });

  it("lays a high-water mark out as mongod 7's", () => {
    const token = encodeResumeToken({ time: time(1, 1), opIndex: 0, kind: 'highWaterMark', fromInvalidate: false });
    expect(token).toEqual({ _data: '8200000001000000012B0429296E1404' });
  });

  it('sorts tokens as their positions, as text', () => {
    const positions = [time(5, 1), time(5, 2), time(6, 1)].flatMap((t) =>
      [0, 1, 200].map((opIndex) => ({ time: t, opIndex })),
    );
    const texts = positions.map(
      (p) => encodeResumeToken({ ...p, kind: 'event', fromInvalidate: false })._data as string,
    );
    expect([...texts].sort()).toEqual(texts);
    expect(comparePositions(positions[0]!, positions[1]!)).toBeLessThan(0);
  });

  it.each<[string, unknown, string]>([
    ['no _data', undefined, 'Location40647'],
    ['a number', 5, 'Location40647'],
    ['odd hex', '820', 'FailedToParse'],
    ['not hex', 'zz', 'FailedToParse'],
    ['nothing', '', 'Location40649'],
    ['another layout', '00', 'ChangeStreamFatalError'],
    ['a cut token', '8200000001000000012B04', 'ChangeStreamFatalError'],
    ['a token with more after it', '8200000001000000012B0429296E140400', 'ChangeStreamFatalError'],
    ['an unknown token type', '8200000001000000012B042B0229 6E1404'.replace(' ', ''), 'ChangeStreamFatalError'],
  ])('refuses %s', (_, data, codeName) => {
    expect(() => decodeResumeToken(data === undefined ? {} : { _data: data })).toThrow(
      expect.objectContaining({ codeName }) as Error,
    );
  });
});

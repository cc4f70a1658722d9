// The CommonJS consumer's Jest spec (ts-jest, as `nest new` sets Jest up).
import { run } from './app';
import { expectedResults } from './expected';

describe('nestjs-objectid in a CommonJS NestJS app under Jest + ts-jest', () => {
  it('should parse, validate, serialize and number as in production', async () => {
    const results = await run();
    expect(results).toEqual(expectedResults(results.sentId as string));
  }, 60_000);
});

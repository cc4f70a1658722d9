/**
 * Values a client may send are stored and returned as sent, even where
 * JavaScript has no equivalent: written against mongod's behaviour; runs
 * against MONGO_URL too.
 */
import { BSONRegExp } from './bson/bson-library.cjs';
import { useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();

describe('stored values', () => {
  // bson's decoder turns a BSON regex into a JavaScript RegExp and throws on a pattern JavaScript
  // cannot compile, so the server refused the whole message and closed the connection. mongod
  // stores any regex and complains only when a query matches with an invalid one.
  it.each([
    ['PCRE syntax', new BSONRegExp('(?i)a')],
    ['an unterminated class', new BSONRegExp('[')],
    ['a trailing backslash', new BSONRegExp('a\\', 'im')],
  ])('should store a regex JavaScript cannot compile (%s) and return it unchanged', async (_label, regex) => {
    const things = await fixture.fresh('regexes');
    await things.insertOne({ _id: 1, regex } as never);
    const doc = await things.findOne({ _id: 1 } as never, { bsonRegExp: true });
    expect(doc).toEqual({ _id: 1, regex });
  });

  it('should still return a regex JavaScript can compile as a RegExp', async () => {
    const things = await fixture.fresh('regexes');
    await things.insertOne({ _id: 1, regex: /^a.c$/i } as never);
    expect(await things.findOne({ _id: 1 } as never)).toEqual({ _id: 1, regex: /^a.c$/i });
  });
});

/**
 * Keyset pagination: a deep page by cursor against the same page by
 * skip/limit, in `_id` and in `price` order, on the embedded server; and what
 * a cursor costs to make and to check (signed and not). Every ratio is taken
 * in the same run against skip/limit in `_id` order.
 */
import { MongoClient, ObjectId, type Collection, type Document } from 'mongodb';
import { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';
import { decodeKeysetCursor, encodeKeysetCursor } from '../src/pagination/keyset-cursor.js';
import { keysetQuery, toKeysetPage } from '../src/pagination/keyset-pagination.js';
import { parseKeysetSort } from '../src/pagination/keyset-sort.js';
import { measureInterleaved, type BenchRow, type BenchTable } from './harness.js';

const DOCUMENTS = 20_000;
const OFFSET = 19_000;
const PAGE = 20;
const PRICE = parseKeysetSort('price', { price: 'number' });
const BY_ID = parseKeysetSort('_id');

/** The page at OFFSET, by skip/limit in `order`. */
async function skipPage(collection: Collection, order: Record<string, 1 | -1>): Promise<Document[]> {
  return collection.find({}).sort(order).skip(OFFSET).limit(PAGE).toArray();
}

/** The same page, by the cursor of the document before it. */
async function keysetPage(collection: Collection, sort: typeof PRICE, cursor: string): Promise<Document[]> {
  const q = keysetQuery({}, { sort, after: cursor, limit: PAGE });
  return toKeysetPage((await collection.find(q.filter).sort(q.sort).limit(q.limit).toArray()) as never, q).items;
}

/** Runs the benchmark and returns its table. */
export async function run(): Promise<BenchTable> {
  const server = await EmbeddedMongoServer.start();
  const client = await new MongoClient(server.uri).connect();
  try {
    const collection = client.db('bench').collection('keyset');
    await collection.createIndex({ price: 1, _id: 1 });
    for (let offset = 0; offset < DOCUMENTS; offset += 1_000) {
      await collection.insertMany(
        Array.from({ length: 1_000 }, (_, i) => ({ _id: new ObjectId(), price: (offset + i) % 997, name: `p${i}` })),
      );
    }
    // The cursors of the document just before the page at OFFSET, and a check that both ways give one page.
    const cursorOf = async (sort: typeof PRICE, order: Record<string, 1 | -1>) => {
      const [before] = await collection
        .find({})
        .sort(order)
        .skip(OFFSET - 1)
        .limit(1)
        .toArray();
      return encodeKeysetCursor({ sort, value: sort.field === '_id' ? before._id : before.price, id: before._id });
    };
    const idCursor = await cursorOf(BY_ID, { _id: 1 });
    const priceCursor = await cursorOf(PRICE, { price: 1, _id: 1 });
    const same = async (a: Document[], b: Document[]) => JSON.stringify(a) === JSON.stringify(b);
    if (
      !(await same(await skipPage(collection, { _id: 1 }), await keysetPage(collection, BY_ID, idCursor))) ||
      !(await same(await skipPage(collection, { price: 1, _id: 1 }), await keysetPage(collection, PRICE, priceCursor)))
    ) {
      throw new Error('bench: the keyset page differs from the skip/limit page');
    }

    const position = { sort: PRICE, value: 123.45, id: new ObjectId() };
    const plain = encodeKeysetCursor(position);
    const signed = encodeKeysetCursor(position, { secret: 'bench secret' });
    const names = {
      skipId: `skip/limit, _id order, offset ${OFFSET.toLocaleString('en-US')} of ${DOCUMENTS.toLocaleString('en-US')}`,
      keysetId: 'cursor (after), _id order, same page',
      skipPrice: 'skip/limit, price order, same offset',
      keysetPrice: 'cursor (after), price then _id, same page',
    };
    const pages = await measureInterleaved(
      {
        [names.skipId]: async () => (await skipPage(collection, { _id: 1 })).length && 1,
        [names.keysetId]: async () => (await keysetPage(collection, BY_ID, idCursor)).length && 1,
        [names.skipPrice]: async () => (await skipPage(collection, { price: 1, _id: 1 })).length && 1,
        [names.keysetPrice]: async () => (await keysetPage(collection, PRICE, priceCursor)).length && 1,
      },
      { rounds: 3, ms: 300 },
    );
    const codec = await measureInterleaved(
      {
        'encode a price cursor': () => (encodeKeysetCursor(position) ? 1 : 0),
        'decode and check a price cursor': () => (decodeKeysetCursor(plain, PRICE) ? 1 : 0),
        'decode and check a signed cursor (HMAC-SHA256)': () =>
          decodeKeysetCursor(signed, PRICE, { secret: 'bench secret' }) ? 1 : 0,
      },
      { rounds: 3, ms: 200 },
    );
    const rows: BenchRow[] = [
      ...Object.entries(pages).map(([name, opsPerSec]) => ({ name, opsPerSec, note: `pages/s, ${PAGE} per page` })),
      ...Object.entries(codec).map(([name, opsPerSec]) => ({
        name,
        opsPerSec,
        note: `${(1e6 / opsPerSec).toFixed(1)} µs each`,
      })),
    ];
    const idGain = pages[names.keysetId] / pages[names.skipId];
    const priceGain = pages[names.keysetPrice] / pages[names.skipPrice];
    rows[1].note += ` (${idGain.toFixed(1)}× skip/limit)`;
    rows[3].note += ` (${priceGain.toFixed(1)}× skip/limit)`;
    return {
      title: 'Keyset pagination: a deep page by cursor vs skip/limit (embedded server), and the cursor codec',
      baseline: names.skipId,
      rows,
      targets: [
        { description: `a page by cursor beats skip/limit at offset ${OFFSET} in _id order`, met: idGain > 1 },
        { description: `a page by cursor beats skip/limit at offset ${OFFSET} in price order`, met: priceGain > 1 },
      ],
    };
  } finally {
    await client.close();
    await server.stop();
  }
}

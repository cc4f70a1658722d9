import { MongoClient } from 'mongodb';

import { EmbeddedMongoServer, startTestMongo, withDatabase } from './index.js';

describe('withDatabase', () => {
  it.each([
    ['mongodb://127.0.0.1:1/?directConnection=true', 'db1', 'mongodb://127.0.0.1:1/db1?directConnection=true'],
    ['mongodb://h:1', 'x', 'mongodb://h:1/x'],
    ['mongodb://u:p@a:1,b:2/old?replicaSet=rs0&w=1', 't', 'mongodb://u:p@a:1,b:2/t?replicaSet=rs0&w=1'],
    [
      'mongodb+srv://cluster.example.net/?retryWrites=true',
      'y',
      'mongodb+srv://cluster.example.net/y?retryWrites=true',
    ],
  ])('%s + %s → %s', (uri, db, expected) => {
    expect(withDatabase(uri, db)).toBe(expected);
  });

  it('rejects a non-URI with a hint', () => {
    expect(() => withDatabase('localhost:27017', 'x')).toThrow(/mongodb:\/\//);
  });
});

describe('startTestMongo', () => {
  it('gives a uri pointing at a unique database', async () => {
    const [a, b] = await Promise.all([startTestMongo(), startTestMongo()]);
    try {
      expect(a.dbName).not.toBe(b.dbName);
      const client = await new MongoClient(a.uri).connect();
      try {
        expect(client.db().databaseName).toBe(a.dbName);
        await client.db().collection('c').insertOne({ x: 1 });
      } finally {
        await client.close();
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('honours dbName', async () => {
    const mongo = await startTestMongo({ dbName: 'named_db' });
    try {
      expect(mongo.uri).toContain('/named_db');
      if (!process.env.MONGO_URL && !process.env.MONGO_BACKEND) expect(mongo.backend).toBe('embedded');
    } finally {
      await mongo.stop();
    }
  });
});

describe('EmbeddedMongoServer lifecycle', () => {
  it('restarts on the same port with the same data; stop() drops it', async () => {
    const server = await EmbeddedMongoServer.start();
    const port = server.port;
    expect(port).toBeGreaterThan(0);
    expect(String(server)).toMatch(/not a database/);
    const client = await new MongoClient(server.uri, {
      serverSelectionTimeoutMS: 3000,
      heartbeatFrequencyMS: 500,
    }).connect();
    try {
      await client
        .db('keep')
        .collection('c')
        .insertOne({ _id: 1 as never, v: 'kept' });
      await server.close();
      expect(server.listening).toBe(false);
      await expect(client.db('keep').collection('c').findOne({}, { timeoutMS: 300 })).rejects.toThrow();
      await server.listen();
      expect(server.port).toBe(port);
      expect(
        await client
          .db('keep')
          .collection('c')
          .findOne({ _id: 1 as never }),
      ).toEqual({ _id: 1, v: 'kept' });
      await server.restart();
      expect(await client.db('keep').collection('c').countDocuments()).toBe(1);
      await server.stop({ keepData: true });
      await server.listen();
      expect(await client.db('keep').collection('c').countDocuments()).toBe(1);
      await server.stop();
      await server.listen();
      expect(await client.db('keep').collection('c').countDocuments()).toBe(0);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

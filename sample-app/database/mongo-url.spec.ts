import { mongoUrlDatabase, redactMongoUrl } from './mongo-url.js';

describe('MongoDB URL helpers', () => {
  describe('redactMongoUrl', () => {
    it.each([
      ['mongodb://localhost:27017/catalog', 'mongodb://localhost:27017/catalog'],
      ['mongodb://user:s3cret@db.example.com:27017/catalog', 'mongodb://db.example.com:27017/catalog'],
      ['mongodb://us%40er:p%40ss@a:1,b:2/x?replicaSet=rs0', 'mongodb://a:1,b:2/x?replicaSet=rs0'],
      [
        'mongodb+srv://u:p@cluster0.abc.mongodb.net/?retryWrites=true',
        'mongodb+srv://cluster0.abc.mongodb.net/?retryWrites=true',
      ],
      ['mongodb://h/?tls=true&tlsCertificateKeyFilePassword=hunter2&appName=x', 'mongodb://h/?tls=true&appName=x'],
      ['mongodb://h/db?password=x', 'mongodb://h/db'],
      ['http://example.com', '(not a mongodb:// URL)'],
    ])('should turn %s into %s', (uri, expected) => {
      expect(redactMongoUrl(uri)).toBe(expected);
    });
  });

  describe('mongoUrlDatabase', () => {
    it.each([
      ['mongodb://localhost:27017/catalog', 'catalog'],
      ['mongodb://u:p@a:1,b:2/shop?replicaSet=rs0', 'shop'],
      ['mongodb://localhost:27017', undefined],
      ['mongodb://localhost:27017/', undefined],
      ['mongodb://127.0.0.1:5555/?directConnection=true', undefined],
      ['mongodb+srv://u:p@cluster0.example.net/my%20db', 'my db'],
    ])('should read the database of %s', (uri, expected) => {
      expect(mongoUrlDatabase(uri)).toBe(expected);
    });
  });
});

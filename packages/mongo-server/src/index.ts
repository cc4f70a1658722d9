/**
 * `nestjs-objectid-mongo-server`: an in-process, MongoDB wire-compatible
 * server for tests and demos, and `startTestMongo()`, which picks the backend
 * (MONGO_URL, mongodb-memory-server or the embedded server).
 */
export { EmbeddedMongoServer } from './embedded-mongo-server.js';
export type { EmbeddedMongoServerOptions, EmbeddedMongoStopOptions } from './embedded-mongo-server.js';
export { startTestMongo, withDatabase } from './start-test-mongo.js';
export type { StartTestMongoOptions, TestMongo } from './start-test-mongo.js';
export { supportsFailPoints } from './supports-fail-points.js';

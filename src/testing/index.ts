/**
 * `nestjs-objectid/testing`: MongoDB backends for tests and demos. Nothing
 * in the library's runtime code imports this entry point.
 */
export { EmbeddedMongoServer } from './embedded-mongo-server.js';
export type { EmbeddedMongoServerOptions, EmbeddedMongoStopOptions } from './embedded-mongo-server.js';
export { startTestMongo, withDatabase } from './start-test-mongo.js';
export type { StartTestMongoOptions, TestMongo } from './start-test-mongo.js';

import mongoose from 'mongoose';
import {
  hasTransactionRetryLabel,
  isDuplicateKeyError,
  isDatabaseUnavailableError,
  markTransient,
} from './mongo-errors.js';

const { mongo } = mongoose;

function socketError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('mongo error classification', () => {
  it.each<[string, unknown, boolean]>([
    ['MongoNetworkError', new mongo.MongoNetworkError('socket closed'), true],
    ['MongoNetworkTimeoutError', new mongo.MongoNetworkTimeoutError('timed out'), true],
    ['MongoNotConnectedError', new mongo.MongoNotConnectedError('not connected'), true],
    ['MongoTopologyClosedError', new mongo.MongoTopologyClosedError(), true],
    ['NotWritablePrimary', new mongo.MongoServerError({ code: 10107, errmsg: 'not primary' }), true],
    ['PrimarySteppedDown', new mongo.MongoServerError({ code: 189, errmsg: 'stepped down' }), true],
    [
      'mongoose buffering timeout',
      new mongoose.Error('Operation `counters.findOneAndUpdate()` buffering timed out after 10ms'),
      true,
    ],
    ['DuplicateKey', new mongo.MongoServerError({ code: 11000, errmsg: 'E11000' }), false],
    ['WriteConflict', new mongo.MongoServerError({ code: 112, errmsg: 'WriteConflict' }), false],
    [
      'a raw EPIPE socket error the driver let through',
      socketError('EPIPE', 'This socket has been ended by the other party'),
      true,
    ],
    ['a raw ECONNRESET socket error', socketError('ECONNRESET', 'read ECONNRESET'), true],
    ['a file-system error', socketError('ENOENT', 'no such file'), false],
    ['a socket error from another realm (not instanceof Error)', { code: 'EPIPE', message: 'socket ended' }, true],
    ['a plain Error', new Error('boom'), false],
    ['a string', 'down', false],
  ])('should classify %s as unavailable: %s', (_label, error, expected) => {
    expect(isDatabaseUnavailableError(error)).toBe(expected);
  });

  it.each<[unknown, boolean]>([
    [new mongo.MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key' }), true],
    [new mongo.MongoServerError({ code: 11001, errmsg: 'other' }), false],
    [null, false],
  ])('should detect duplicate keys in %p: %s', (error, expected) => {
    expect(isDuplicateKeyError(error)).toBe(expected);
  });

  it('should label a duplicate-key error as transient for withTransaction()', () => {
    const error = new mongo.MongoServerError({ code: 11000, errmsg: 'E11000' });
    expect(hasTransactionRetryLabel(error)).toBe(false);
    markTransient(error);
    expect(error.hasErrorLabel('TransientTransactionError')).toBe(true);
    expect(hasTransactionRetryLabel(error)).toBe(true);
  });
});

/**
 * Conformance: the errors mongod 7 answers for a findAndModify with an empty
 * collection name, with options of the wrong type or that contradict each
 * other, and with updates that cannot parse or cannot apply to the matched
 * document. The cases and answers are those an independent MongoDB-compatible
 * server's integration suite asserts against a real MongoDB; its shared data
 * is replaced by the few documents the cases match. An update that fails on
 * the matched document prefixes its error with "Plan executor error during
 * findAndModify :: caused by :: "; one that fails to parse does not.
 * Passes against MONGO_URL too.
 */
import type { Document } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';
import { CREATE_FOO, NESTED, SHARED_UPDATE_ERRORS, UPDATE_ERROR_DOCUMENTS } from './update-error-cases.fixture.js';

const fx = useDriverFixture();

const EXECUTOR = 'Plan executor error during findAndModify :: caused by :: ';
const wrongBool = (field: string): string =>
  `BSON field 'findAndModify.${field}' is the wrong type 'string', expected types '[bool, long, int, decimal, double']`;

type Case = [label: string, command: Document, code: number, message: string];

const CASES: Case[] = [
  [
    'upsert together with remove',
    { upsert: true, remove: true },
    9,
    'Cannot specify both upsert=true and remove=true ',
  ],
  [
    'a string sort',
    { update: {}, sort: '123' },
    14,
    "BSON field 'findAndModify.sort' is the wrong type 'string', expected type 'object'",
  ],
  ['a string remove', { query: {}, remove: '123' }, 14, wrongBool('remove')],
  ['a string new', { query: {}, new: '123' }, 14, wrongBool('new')],
  ['a string upsert', { query: {}, upsert: '123' }, 14, wrongBool('upsert')],
  [
    'setting a field inside an array of documents',
    { query: { _id: NESTED._id }, update: { $set: { 'v.foo': 'foo' } } },
    28,
    `${EXECUTOR}${CREATE_FOO}`,
  ],
  [
    'setting _id',
    { update: { $set: { _id: 'non-existent' } } },
    66,
    `${EXECUTOR}Performing an update on the path '_id' would modify the immutable field '_id'`,
  ],
  ...SHARED_UPDATE_ERRORS.map(({ label, filter, update, code, message, onDocument }): Case => [
    label,
    { query: filter, update },
    code,
    onDocument ? `${EXECUTOR}${message}` : message,
  ]),
  [
    'setting a field and $min of a path under it',
    { query: { _id: { $exists: false } }, update: { $set: { v: 'val' }, $min: { 'v.foo': 'val' } } },
    40,
    "Updating the path 'v.foo' would create a conflict at 'v'",
  ],
  [
    'setting a path and $min of its parent',
    { query: { _id: { $exists: false } }, update: { $set: { 'v.foo': 'val' }, $min: { v: 'val' } } },
    40,
    "Updating the path 'v' would create a conflict at 'v'",
  ],
];

describe('findAndModify errors', () => {
  it.each(CASES)('should refuse %s', async (_label, command, code, message) => {
    const collection = await fx.fresh('find_and_modify_errors');
    await collection.insertMany(UPDATE_ERROR_DOCUMENTS.map((document) => ({ ...document })));
    // As the original suite does, sort by _id unless the case sets a sort.
    const sort = 'sort' in command ? {} : { sort: { _id: 1 } };
    const error = await rejection(fx.db.command({ findAndModify: collection.collectionName, ...command, ...sort }));
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('should refuse an empty collection name', async () => {
    await fx.fresh('find_and_modify_errors');
    const error = await rejection(fx.db.command({ findAndModify: '' }));
    expect([error.code, error.message]).toEqual([73, `Invalid namespace specified '${fx.db.databaseName}.'`]);
  });
});

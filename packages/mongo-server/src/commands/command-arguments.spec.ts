import { Binary, UUID } from '../bson/bson-library.cjs';
import { checkSessionFields } from './command-arguments.js';
import { CommandError } from './command-error.js';

/** The error `checkSessionFields` throws for `fields`, as `[codeName, message]`. */
function refusal(fields: Record<string, unknown>): [string, string] | undefined {
  try {
    checkSessionFields({ ping: 1, ...fields, $db: 'admin' });
    return undefined;
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return [error.codeName, error.message];
  }
}

describe('checkSessionFields', () => {
  const uuid = new UUID();

  describe('when the session fields are well-formed or absent', () => {
    it.each([
      ['none', {}],
      ['an lsid', { lsid: { id: uuid } }],
      ['a transaction', { lsid: { id: uuid }, txnNumber: 3n, autocommit: false, startTransaction: true }],
      ['nulls, which count as absent', { lsid: null, txnNumber: null, autocommit: null, startTransaction: null }],
    ])('should accept %s', (_label, fields) => {
      expect(refusal(fields)).toBeUndefined();
    });
  });

  // mongod's OperationSessionInfo parser: the server converted these (BigInt(), toString('hex')) and threw.
  describe('when one is malformed', () => {
    it.each([
      [
        { lsid: 'x' },
        'TypeMismatch',
        "BSON field 'OperationSessionInfo.lsid' is the wrong type 'string', expected type 'object'",
      ],
      [
        { lsid: [] },
        'TypeMismatch',
        "BSON field 'OperationSessionInfo.lsid' is the wrong type 'array', expected type 'object'",
      ],
      [{ lsid: {} }, 'Location40414', "BSON field 'OperationSessionInfo.lsid.id' is missing but a required field"],
      [
        { lsid: { id: 5 } },
        'TypeMismatch',
        "BSON field 'OperationSessionInfo.lsid.id' is the wrong type 'int', expected type 'binData'",
      ],
      [
        { lsid: { id: new Binary(Buffer.alloc(16), 0) } },
        'TypeMismatch',
        "BSON field 'OperationSessionInfo.lsid.id' is the wrong binData type 'general', expected type 'UUID'",
      ],
      [
        { lsid: { id: new Binary(Buffer.alloc(16), 1) } },
        'TypeMismatch',
        "BSON field 'OperationSessionInfo.lsid.id' is the wrong binData type 'function', expected type 'UUID'",
      ],
      [
        { lsid: { id: new Binary(Buffer.alloc(3), 4) } },
        'InvalidUUID',
        'uuid must be a 16-byte binary field with UUID (4) subtype',
      ],
      [
        { txnNumber: 1 },
        'TypeMismatch',
        "BSON field 'OperationSessionInfo.txnNumber' is the wrong type 'int', expected type 'long'",
      ],
      [
        { txnNumber: {} },
        'TypeMismatch',
        "BSON field 'OperationSessionInfo.txnNumber' is the wrong type 'object', expected type 'long'",
      ],
      [
        { autocommit: 'false' },
        'TypeMismatch',
        "BSON field 'OperationSessionInfo.autocommit' is the wrong type 'string', expected type 'bool'",
      ],
      [
        { startTransaction: 1n },
        'TypeMismatch',
        "BSON field 'OperationSessionInfo.startTransaction' is the wrong type 'long', expected type 'bool'",
      ],
    ])('should refuse %j', (fields, codeName, message) => {
      expect(refusal(fields)).toEqual([codeName, message]);
    });
  });
});

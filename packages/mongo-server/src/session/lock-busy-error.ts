/**
 * Thrown when a write outside a transaction meets a document or unique key
 * that an open transaction holds. It never reaches the client: the router
 * makes the command wait until the transaction ends and runs it again, as
 * MongoDB's write-conflict retry loop does.
 */
export class LockBusyError extends Error {
  constructor(readonly lock: string) {
    super('the document or unique key is held by an open transaction');
    this.name = 'LockBusyError';
  }
}

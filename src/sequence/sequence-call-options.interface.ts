import type { ClientSession } from 'mongoose';
import type { SequenceScope } from './sequence-key.js';

/** Which counter of a sequence a call is for. */
export interface SequenceScopeOptions {
  /**
   * Explicit scope, e.g. a tenant id: `invoices:tenant-42`, or several fields,
   * `{ storeId, region }` → `invoices:region=eu,storeId=7` (sorted by name).
   * @default none
   */
  scope?: SequenceScope;
  /**
   * The instant that selects the `resetEvery` period and fills the date tokens.
   * @default the service's clock, read once per call
   */
  date?: Date;
  /**
   * Runs the command in this session, and in its transaction if one is
   * started: an aborted transaction takes its number back (gap-free numbers).
   * Errors labelled `TransientTransactionError` (write conflicts, network
   * errors, a lost first-upsert race) are rethrown as the driver's own error
   * so that `session.withTransaction()` retries the callback.
   * Not available with the cached allocator.
   * @default none
   */
  session?: ClientSession;
}

/** Options of `SequenceService.set()`. */
export interface SequenceSetOptions extends SequenceScopeOptions {
  /**
   * Allows moving the counter backwards, which will issue numbers again.
   * @default false
   */
  force?: boolean;
}

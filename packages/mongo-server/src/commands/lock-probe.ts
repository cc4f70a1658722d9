import type { Document } from 'bson';

import { LockBusyError } from '../session/lock-busy-error.js';
import { TransactionOverlay } from '../session/transaction-overlay.js';
import type { CollectionView } from '../store/collection-view.js';
import type { MemoryStore } from '../store/memory-store.js';
import type { CommandContext, CommandHandler } from './command-context.js';

/**
 * Whether the write `cmd`, outside any transaction, would meet a document or
 * unique key an open transaction holds. It runs once on scratch overlays
 * whose writes only check the locks and are then thrown away, so a command
 * that must wait has changed nothing yet: a multi-document update never
 * stops halfway. MongoDB yields and retries each document instead; waiting
 * before the first write is the simple behaviour it can also show.
 */
export function meetsLock(handler: CommandHandler, cmd: Document, ctx: CommandContext, store: MemoryStore): boolean {
  const overlays = new Map<string, TransactionOverlay>();
  const probe: CommandContext = {
    ...ctx,
    view(name: string, create = false): CollectionView | undefined {
      const collection = create ? ctx.ensureCollection(name).collection : ctx.collection(name);
      if (!collection) return undefined;
      let overlay = overlays.get(name);
      if (!overlay) {
        overlay = new TransactionOverlay(collection, (lock) => store.locks.assertFree(lock));
        overlays.set(name, overlay);
      }
      return overlay;
    },
  };
  try {
    handler(cmd, probe);
  } catch (error) {
    // Any other error comes again, as the reply, when the command runs for real.
    return error instanceof LockBusyError;
  }
  return false;
}

import type { Document } from 'bson';

import { CommandError } from './command-error.js';
import { FailPointMode } from './fail-point-mode.js';

/** A fail point's `data`: a document (TypeMismatch otherwise), `{}` when absent. */
export function dataDocument(raw: unknown): Document {
  if (raw === undefined) return {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new CommandError('TypeMismatch', "'data' must be an object");
  }
  return raw as Document;
}

/**
 * What `configureFailPoint` sets on one fail point (its mode and data) and
 * how many times it fired since, which the next `configureFailPoint`
 * answers as `count`, as mongod's does.
 */
export class FailPointState {
  private mode = FailPointMode.off();
  private settings: Document = {};
  private timesEntered = 0;

  constructor(private readonly parseData: (raw: unknown) => Document = dataDocument) {}

  /** The `data` it was configured with (`{}` when off). */
  get data(): Document {
    return this.settings;
  }

  /** Whether it may fire (it is not off). */
  get armed(): boolean {
    return !this.mode.off;
  }

  /** Applies a `configureFailPoint` command; returns the reply. */
  configure(cmd: Document): Document {
    const mode = FailPointMode.parse(cmd.mode);
    const data = mode.off ? {} : this.parseData(cmd.data);
    const count = this.timesEntered;
    this.mode = mode;
    this.settings = data;
    this.timesEntered = 0;
    return { count, ok: 1 };
  }

  /** Turns the fail point off, as a restart does. */
  reset(): void {
    this.mode = FailPointMode.off();
    this.settings = {};
    this.timesEntered = 0;
  }

  /** Whether it fires on this occasion (one it applies to), counting `times` and `skip` down. */
  fire(): boolean {
    if (this.mode.off || !this.mode.fire()) return false;
    this.timesEntered++;
    return true;
  }
}

import type { Document } from 'bson';

import { CommandError } from './command-error.js';

type Mode =
  | { kind: 'off' }
  | { kind: 'alwaysOn' }
  | { kind: 'times'; remaining: number }
  | { kind: 'skip'; remaining: number }
  | { kind: 'activationProbability'; p: number };

function integerArgument(value: unknown, name: string): number {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw new CommandError('BadValue', `'${name}' option to 'mode' must be a non-negative integer`);
  }
  return n;
}

/**
 * When a fail point fires, as `configureFailPoint`'s `mode` says: `'off'`,
 * `'alwaysOn'`, `{ times: n }` (the next n times), `{ skip: n }` (every
 * time after the next n) or `{ activationProbability: p }`.
 */
export class FailPointMode {
  private constructor(private mode: Mode) {}

  /** The mode that never fires. */
  static off(): FailPointMode {
    return new FailPointMode({ kind: 'off' });
  }

  /** Reads `configureFailPoint`'s `mode`, with mongod's BadValue for anything else. */
  static parse(raw: unknown): FailPointMode {
    if (raw === 'off') return FailPointMode.off();
    if (raw === 'alwaysOn') return new FailPointMode({ kind: 'alwaysOn' });
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
      const spec = raw as Document;
      if ('times' in spec) {
        const remaining = integerArgument(spec.times, 'times');
        return new FailPointMode(remaining === 0 ? { kind: 'off' } : { kind: 'times', remaining });
      }
      if ('skip' in spec) return new FailPointMode({ kind: 'skip', remaining: integerArgument(spec.skip, 'skip') });
      if ('activationProbability' in spec && typeof spec.activationProbability === 'number') {
        const p = spec.activationProbability;
        if (p >= 0 && p <= 1) return new FailPointMode({ kind: 'activationProbability', p });
      }
    }
    throw new CommandError(
      'BadValue',
      "'mode' must be 'alwaysOn', 'off', or an object with 'times', 'skip' or 'activationProbability'",
    );
  }

  /** Whether it is off for good (until configured again). */
  get off(): boolean {
    return this.mode.kind === 'off';
  }

  /** Whether it fires on this occasion, counting `times` and `skip` down. */
  fire(): boolean {
    const mode = this.mode;
    switch (mode.kind) {
      case 'times':
        mode.remaining--;
        if (mode.remaining <= 0) this.mode = { kind: 'off' };
        return true;
      case 'skip':
        if (mode.remaining > 0) {
          mode.remaining--;
          return false;
        }
        return true;
      case 'activationProbability':
        return Math.random() < mode.p;
      default:
        return mode.kind === 'alwaysOn';
    }
  }
}

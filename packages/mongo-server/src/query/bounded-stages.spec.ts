import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';

import { CommandError } from '../commands/command-error.js';
import { OperationBudget } from './operation-budget.js';
import { mingoOptions } from './query-context.js';

const ITEMS: Document[] = [
  { _id: 1, k: 'a', next: 'b' },
  { _id: 2, k: 'b', next: 'c' },
  { _id: 3, k: 'c', next: null },
];

/**
 * Runs `stage` over ITEMS under a 1 s `maxTimeMS` whose time is already up
 * (the clock reads 5 s): whether it fails tells whether the clock was read.
 * Three documents make a few ticks, far fewer than the 32 between clock reads
 * of cheap work.
 */
function runLate(stage: Document): unknown {
  let now = 0;
  const budget = new OperationBudget({ clock: () => now, maxTimeMS: 1000 });
  now = 5000;
  const options = mingoOptions({ collectionResolver: () => ITEMS });
  try {
    return OperationBudget.run(budget, () => new Aggregator([stage], options).run(ITEMS));
  } catch (error) {
    return error;
  }
}

describe('budgeted pipeline stages', () => {
  it.each<[string, Document]>([
    ['$lookup', { $lookup: { from: 'items', localField: 'k', foreignField: 'k', as: 'joined' } }],
    [
      '$graphLookup',
      {
        $graphLookup: { from: 'items', startWith: '$next', connectFromField: 'next', connectToField: 'k', as: 'path' },
      },
    ],
    ['$facet', { $facet: { all: [{ $match: {} }] } }],
  ])('should read the clock for each document %s emits: its work per document has no bound', (_name, stage) => {
    // Over documents of 80 MB a $graphLookup took seconds per document and ran 28 s past a 10 s limit.
    const outcome = runLate(stage);
    expect(outcome).toBeInstanceOf(CommandError);
    expect((outcome as CommandError).codeName).toBe('MaxTimeMSExpired');
  });

  it('should read the clock only every 32 ticks for cheap stages', () => {
    expect(runLate({ $set: { seen: true } })).toEqual(ITEMS.map((item) => ({ ...item, seen: true })));
  });
});

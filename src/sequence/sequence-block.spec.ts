import { SequenceBlock } from './sequence-block.js';

describe('SequenceBlock', () => {
  it.each([
    [new SequenceBlock(1, 5, 1, 5), [1, 2, 3, 4, 5]],
    [new SequenceBlock(1000, 1040, 10, 5), [1000, 1010, 1020, 1030, 1040]],
    [new SequenceBlock(7, 7, 3, 1), [7]],
  ])('should list the numbers of %o', (block, expected) => {
    expect(block.values()).toEqual(expected);
  });

  it('should list bigint numbers exactly beyond 2^53', () => {
    const first = 2n ** 60n;
    expect(new SequenceBlock<bigint>(first, first + 2n, 1n, 3).values()).toEqual([first, first + 1n, first + 2n]);
  });
});

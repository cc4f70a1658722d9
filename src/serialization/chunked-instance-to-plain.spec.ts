import 'reflect-metadata';
import { Exclude, Expose, instanceToPlain, Transform, Type, type ClassTransformOptions } from 'class-transformer';
import { chunkedInstanceToPlain, MAX_COPY_DEPTH } from './chunked-instance-to-plain.js';

class Leaf {
  @Expose() v = 1;
  @Exclude() hidden = 2;
  extra = 'x';
}

class Typed {
  @Expose() o = 'typed';
  extra = 1;
}

/** One level of a chain, with most of what class-transformer does per property. */
class Level {
  @Expose() name = 'level';
  @Exclude() secret = 's';
  @Expose({ name: 'kid' }) @Type(() => Level) child?: Level;
  @Expose() @Type(() => Leaf) leaves = [new Leaf(), new Leaf()];
  @Expose() @Transform(({ value }) => (value instanceof Date ? value.getTime() : value)) when = new Date(5);
  @Expose({ groups: ['admin'] }) adminOnly = { a: 1 };
  @Expose({ since: 2 }) newer = { n: 1 };
  // Serialized as a Typed: class-transformer takes the @Type, not the value's class.
  @Expose() @Type(() => Typed) typed: object = { o: 'plain', extra: 3, more: 4 };
  @Expose() set = new Set([1, { s: 1 }]);
  @Expose() map = new Map<string, unknown>([['k', { m: [1, { mm: 2 }] }]]);
  @Expose() buffer = Buffer.from('hi');
  @Expose() _prefixed = { p: 1 };
  @Expose() plain: Record<string, unknown> = { deep: { deeper: [1, [2, [3]]] } };
  @Expose() @Transform(({ obj }) => ({ from: (obj as Level).name })) computed = 0;
  // Two properties exposed under one name: the last one wins.
  @Expose({ name: 'same' }) first = { which: 'first' };
  @Expose({ name: 'same' }) second = { which: 'second' };
  unset = undefined;

  @Expose() get getter(): object {
    return { g: this.name };
  }
}

function chain(levels: number): Level {
  const root = new Level();
  let node = root;
  for (let i = 1; i < levels; i++) {
    node = node.child = new Level();
    node.name = `level ${i}`;
  }
  return root;
}

describe('chunkedInstanceToPlain', () => {
  // The chunk is 128 levels; class-transformer alone copies these depths without overflowing.
  describe.each<[string, ClassTransformOptions | undefined]>([
    ['no options', undefined],
    ['groups', { groups: ['admin'] }],
    ['version', { version: 1 }],
    ['excludeExtraneousValues', { excludeExtraneousValues: true }],
    ["strategy: 'excludeAll'", { strategy: 'excludeAll' }],
    ['excludePrefixes', { excludePrefixes: ['_'] }],
    ['exposeUnsetFields: false', { exposeUnsetFields: false }],
    ['enableCircularCheck', { enableCircularCheck: true }],
    ['ignoreDecorators', { ignoreDecorators: true }],
  ])('with %s', (_name, options) => {
    it.each([1, 128, 300])('should copy %i levels exactly as instanceToPlain', (levels) => {
      expect(chunkedInstanceToPlain(chain(levels), options)).toStrictEqual(instanceToPlain(chain(levels), options));
    });
  });

  it('should copy wide data below the chunk depth as instanceToPlain', () => {
    const wide = { list: Array.from({ length: 4 }, () => chain(150)), nested: [[[chain(130)]]] };
    expect(chunkedInstanceToPlain(wide)).toStrictEqual(instanceToPlain(wide));
  });

  it('should copy nested arrays as instanceToPlain', () => {
    const root: unknown[] = [];
    let node = root;
    for (let i = 0; i < 600; i++) {
      const next: unknown[] = [i, { i }];
      node.push(next);
      node = next;
    }
    expect(chunkedInstanceToPlain(root)).toStrictEqual(instanceToPlain(root));
  });

  it('should write an entry exposed as "__proto__" as class-transformer does, not its placeholder', () => {
    class Odd {
      @Expose({ name: '__proto__' }) proto = { inherited: true };
      next?: Odd;
    }
    const root = new Odd();
    let node = root;
    for (let i = 0; i < 300; i++) node = node.next = new Odd();
    let ours = chunkedInstanceToPlain(root) as { next?: object };
    let theirs = instanceToPlain(root) as { next?: object };
    for (let depth = 0; ours !== undefined; depth++) {
      expect([depth, Object.getPrototypeOf(ours)]).toEqual([depth, Object.getPrototypeOf(theirs)]);
      ours = ours.next as typeof ours;
      theirs = theirs.next as typeof theirs;
    }
  });

  it('should copy 20,000 levels, where instanceToPlain overflows the stack', () => {
    class Link {
      @Exclude() secret = 's';
      @Expose({ name: 'kid' }) next?: Link;
      constructor(readonly n: number) {}
    }
    const root = new Link(0);
    let node = root;
    for (let i = 1; i < 20_000; i++) node = node.next = new Link(i);
    expect(() => instanceToPlain(root)).toThrow(RangeError);
    let out = chunkedInstanceToPlain(root) as Record<string, unknown>;
    let wrong = 0;
    for (let n = 0; out.kid !== undefined; n++) {
      if (Object.keys(out).join() !== 'n,kid' || out.n !== n) wrong++;
      out = out.kid as Record<string, unknown>;
    }
    expect([wrong, out]).toEqual([0, { n: 19_999 }]);
  });

  it('should leave out references to ancestors copied in earlier chunks with enableCircularCheck', () => {
    class Node {
      root?: Node;
      next?: Node;
    }
    const root = new Node();
    let node = root;
    for (let i = 0; i < 1_000; i++) {
      node = node.next = new Node();
      node.root = root;
    }
    let out = chunkedInstanceToPlain(root, { enableCircularCheck: true }) as Node;
    let depth = 0;
    let withRoot = 0;
    for (; out.next !== undefined; depth++) {
      out = out.next;
      if ('root' in out) withRoot++;
    }
    expect([depth, withRoot]).toEqual([1_000, 0]);
  });

  it('should throw, instead of copying for ever, when a getter returns a new object at every level', () => {
    class Endless {
      @Expose() get next(): Endless {
        return new Endless();
      }
    }
    expect(() => chunkedInstanceToPlain(new Endless())).toThrow(
      new RangeError(
        `class-transformer's copy of the response is more than ${MAX_COPY_DEPTH} levels deep: a getter, method or ` +
          '@Transform probably returns a new object, or its own object, at every level. Return plain data from it, ' +
          'mark it @Exclude(), or pass enableCircularCheck: true if it refers back to an enclosing object.',
      ),
    );
  });

  it("should copy a Promise's value later, as instanceToPlain does", async () => {
    const deep: Record<string, unknown> = {};
    let node = deep;
    for (let i = 0; i < 200; i++) node = node.next = {};
    node.later = Promise.resolve({ value: new Leaf() });
    let out = chunkedInstanceToPlain(deep) as Record<string, unknown>;
    while (out.next !== undefined) out = out.next as Record<string, unknown>;
    await expect(out.later).resolves.toStrictEqual({ value: { v: 1, extra: 'x' } });
  });
});

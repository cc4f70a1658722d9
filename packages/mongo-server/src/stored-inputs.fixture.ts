import type { Collection } from 'mongodb';

/**
 * The inputs of a conformance spec stored as the fields `in0`, `in1`, … of one
 * document, so that each operand reaches an expression through storage as the
 * jstests' stored values do (a constant would be folded differently). Every
 * input must be stored at module level, before {@link StoredInputs.insert} runs.
 */
export class StoredInputs {
  private readonly values: unknown[] = [];

  /** The path of `value` in the document. */
  store(value: unknown): string {
    this.values.push(value);
    return `$in${this.values.length - 1}`;
  }

  /** Inserts the document, with `_id` 1, into `collection`. */
  async insert(collection: Collection): Promise<void> {
    await collection.insertOne(
      Object.fromEntries([['_id', 1], ...this.values.map((value, i) => [`in${i}`, value])]) as never,
    );
  }
}

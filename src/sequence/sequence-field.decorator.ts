import type { Type } from '@nestjs/common';
import type { Schema } from 'mongoose';
import { SequenceConfigError } from './sequence-config.error.js';
import { sequencePlugin, type SequencePluginOptions } from './sequence.plugin.js';

/** Options of {@link SequenceField}: the plugin's options without the service and the field. */
export type SequenceFieldOptions = Omit<SequencePluginOptions, 'sequences' | 'field'>;

// Per class prototype, so subclasses inherit their parents' fields and add their own.
const FIELDS = new WeakMap<object, Map<string, SequenceFieldOptions>>();

/**
 * Marks a property of a `@Schema()` class as numbered by a sequence when its
 * document is first saved; {@link applySequenceFields} applies it to the
 * schema made by `SchemaFactory.createForClass()`. Put it next to `@Prop()`:
 *
 * `@SequenceField({ sequence: 'orders' }) @Prop({ required: true, unique: true }) number: string;`
 */
export function SequenceField(options: SequenceFieldOptions = {}): PropertyDecorator {
  return (target, property) => {
    if (typeof property !== 'string') {
      throw new SequenceConfigError('@SequenceField() decorates a named property, not a symbol.');
    }
    let fields = FIELDS.get(target);
    if (fields === undefined) FIELDS.set(target, (fields = new Map()));
    fields.set(property, { ...options });
  };
}

/**
 * Applies {@link sequencePlugin} to `schema` for each `@SequenceField()` of
 * `target` and returns the schema. Made for `MongooseModule.forFeatureAsync()`,
 * where the service can be injected:
 *
 * `{ name: Order.name, inject: [SequenceService], useFactory: (s: SequenceService) => applySequenceFields(SchemaFactory.createForClass(Order), Order, s) }`
 *
 * Build a fresh schema per call, as above: a schema that already has the
 * plugin would number its documents twice.
 * @throws SequenceConfigError when `target` has no `@SequenceField()`
 */
export function applySequenceFields<S extends Schema>(
  schema: S,
  target: Type<unknown>,
  sequences: SequencePluginOptions['sequences'],
): S {
  const fields = new Map<string, SequenceFieldOptions>();
  const chain: object[] = [];
  for (
    let proto: unknown = target.prototype;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    chain.unshift(proto as object);
  }
  for (const proto of chain) for (const [field, options] of FIELDS.get(proto) ?? []) fields.set(field, options);
  if (fields.size === 0) {
    throw new SequenceConfigError(
      `applySequenceFields(): ${target.name} has no @SequenceField() property; decorate the numbered property, e.g. @SequenceField({ sequence: 'orders' }).`,
    );
  }
  // plugin() as a plain signature: inferring its generics from sequencePlugin's compares two mongoose
  // Schema types structurally, which took 4–5 s of the library's 6 s type-check (tsc --generateTrace).
  const plugin = schema.plugin as unknown as (fn: typeof sequencePlugin, options: SequencePluginOptions) => Schema;
  for (const [field, options] of fields) plugin.call(schema, sequencePlugin, { ...options, field, sequences });
  return schema;
}

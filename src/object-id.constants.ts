/**
 * Injection tokens shared by the modules and the classes they configure. They
 * live in this file, which imports nothing, so that a pipe, the serializer or
 * `SequenceService` can inject its options without importing the module that
 * provides them (and the module can import them without a loop).
 */

/** Options of `ObjectIdModule`: the defaults of every ObjectId pipe. */
export const OBJECT_ID_MODULE_OPTIONS = Symbol('OBJECT_ID_MODULE_OPTIONS');

/** Default options of `ObjectIdSerializerInterceptor` when Nest creates it. */
export const OBJECT_ID_SERIALIZER_OPTIONS = Symbol('OBJECT_ID_SERIALIZER_OPTIONS');

/** Options of `SequenceModule`, read by `SequenceService`. */
export const SEQUENCE_MODULE_OPTIONS = Symbol('SEQUENCE_MODULE_OPTIONS');

/** Counter store of `SequenceService` (a `SequenceCounterStore`); the MongoDB store when none is provided. */
export const SEQUENCE_COUNTER_STORE = Symbol('SEQUENCE_COUNTER_STORE');

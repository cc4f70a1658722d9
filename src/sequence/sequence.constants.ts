/** Separates the parts of a counter key: `invoices:tenant-42:2026`. Names and scopes may not contain it. */
export const SEQUENCE_KEY_SEPARATOR = ':';

/** Longest sequence name or scope accepted, in UTF-16 code units. Keeps `_id`s short and readable. */
export const SEQUENCE_MAX_NAME_LENGTH = 120;

/** Most fields in a scope object (`{ storeId, region }`). */
export const SEQUENCE_MAX_SCOPE_FIELDS = 8;

/** Longest key form of a scope object (`region=eu,storeId=7`), in UTF-16 code units. */
export const SEQUENCE_MAX_SCOPE_LENGTH = 240;

/** Largest `n` accepted by `nextBlock()` and by the `cache` option; `values()` builds an array of that size. */
export const SEQUENCE_MAX_BLOCK_SIZE = 1_000_000;

/** Widest zero padding accepted in `{seq:N}`. An int64 has at most 19 digits. */
export const SEQUENCE_MAX_PAD_WIDTH = 32;

/** Default name of the counters collection. */
export const SEQUENCE_DEFAULT_COLLECTION = 'counters';

/** Default format: the bare number. */
export const SEQUENCE_DEFAULT_FORMAT = '{seq}';

/** Default time zone of date scopes and date tokens. */
export const SEQUENCE_DEFAULT_TIME_ZONE = 'UTC';

/** Default number of immediate retries after a duplicate-key race on the first upsert of a counter. */
export const SEQUENCE_DEFAULT_DUPLICATE_KEY_RETRIES = 3;

/** How many counter keys the cached allocator keeps blocks for before dropping the oldest (their rest becomes a gap). */
export const SEQUENCE_MAX_CACHED_KEYS = 1000;

/** Bounds of an int64, the type counters are stored as. */
export const INT64_MAX = 2n ** 63n - 1n;
export const INT64_MIN = -(2n ** 63n);

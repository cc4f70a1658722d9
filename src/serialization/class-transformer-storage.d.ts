/**
 * class-transformer 0.5 ships the decorator metadata store as a deep CommonJS
 * module without a declaration beside it; its types live under `types/`.
 * The serializer reads `@Exclude()` metadata from the same instance the
 * decorators write to (see `class-transformer-metadata.ts`).
 */
declare module 'class-transformer/cjs/storage.js' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';

  export const defaultMetadataStorage: MetadataStorage;
}

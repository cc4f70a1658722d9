/**
 * class-transformer 0.5 ships its executor and default options as deep
 * CommonJS modules without declarations beside them. The serializer runs
 * that executor in chunks (see `chunked-instance-to-plain.ts`), from the same
 * build as the decorators' metadata store (see `class-transformer-storage.d.ts`).
 * Declared here with what the JavaScript accepts (`types/` marks
 * `recursionStack` private and wants a target type on every call).
 */
declare module 'class-transformer/cjs/TransformOperationExecutor.js' {
  import type { ClassTransformOptions, TransformationType } from 'class-transformer';

  export class TransformOperationExecutor {
    /** The values being copied, read by `enableCircularCheck`. */
    protected recursionStack: Set<unknown>;
    constructor(transformationType: TransformationType, options: ClassTransformOptions);
    transform(
      source: unknown,
      value: unknown,
      targetType: unknown,
      arrayType: unknown,
      isMap: boolean | undefined,
      level?: number,
    ): unknown;
  }
}

declare module 'class-transformer/cjs/constants/default-options.constant.js' {
  import type { ClassTransformOptions } from 'class-transformer';

  export const defaultOptions: Partial<ClassTransformOptions>;
}

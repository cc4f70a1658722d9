import { Injectable, type ArgumentMetadata, ValidationPipe } from '@nestjs/common';

/**
 * Nest's `ValidationPipe` that leaves parameters typed `Types.ObjectId` to the
 * ObjectId pipes. Use it instead of `ValidationPipe` as the global pipe.
 *
 * Why: for `@Param('id', ParseObjectIdPipe) id?: Types.ObjectId` the global
 * `ValidationPipe` runs first, with the ObjectId class as metatype. For a
 * missing value or an object it calls `plainToInstance(ObjectId, …)`, which
 * builds a new random ObjectId whose own keys (`i0`…`i3` on bson 7) then fail
 * `forbidNonWhitelisted` — an optional id becomes a 400 and a bad one gets the
 * message "property i0 should not exist". DTO bodies are validated as before.
 */
@Injectable()
export class ObjectIdValidationPipe extends ValidationPipe {
  protected override toValidate(metadata: ArgumentMetadata): boolean {
    return super.toValidate(metadata) && !isObjectIdClass(metadata.metatype);
  }
}

/** Whether `type` is an ObjectId class from any bson copy (its prototype carries the `_bsontype` tag). */
function isObjectIdClass(type: unknown): boolean {
  if (typeof type !== 'function') return false;
  const prototype = (type as { prototype?: { _bsontype?: unknown } }).prototype;
  return prototype?._bsontype === 'ObjectId' || prototype?._bsontype === 'ObjectID';
}

import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Types } from 'mongoose';
import { decodeObjectId, generateObjectIds, ParseObjectIdPipe } from 'nestjs-objectid';
import { ApiObjectIdParam } from 'nestjs-objectid/swagger';
import { errorExample, ErrorResponse, INVALID_ID_DESCRIPTION, INVALID_ID_EXAMPLE } from '../common/error.response.js';
import { ParseIntInRangePipe } from '../common/pipes/parse-int-in-range.pipe.js';
import { DecodedObjectIdResponse } from './dto/decoded-object-id.response.js';
import { GeneratedObjectIdsResponse } from './dto/generated-object-ids.response.js';

/** Most ids one `GET /object-ids/generate` returns. */
export const MAX_GENERATED_IDS = 100;

/** ObjectId tools without a database: generate ids, take one apart. */
@ApiTags('object-ids')
@Controller('object-ids')
export class ObjectIdsController {
  @Get('generate')
  @ApiQuery({
    name: 'count',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_GENERATED_IDS, default: 1 },
  })
  @ApiOkResponse({ type: GeneratedObjectIdsResponse })
  @ApiBadRequestResponse({
    type: ErrorResponse,
    description: `count is not an integer from 1 to ${MAX_GENERATED_IDS}`,
    example: errorExample(
      400,
      `Validation failed (integer from 1 to ${MAX_GENERATED_IDS} is expected): count "1e2" must be written in digits 0-9 only, e.g. 1`,
    ),
  })
  generate(
    @Query('count', new ParseIntInRangePipe({ min: 1, max: MAX_GENERATED_IDS, defaultValue: 1 })) count: number,
  ): GeneratedObjectIdsResponse {
    return { ids: generateObjectIds(count) };
  }

  @Get(':id/decode')
  @ApiObjectIdParam()
  @ApiOkResponse({ type: DecodedObjectIdResponse })
  @ApiBadRequestResponse({ type: ErrorResponse, description: INVALID_ID_DESCRIPTION, example: INVALID_ID_EXAMPLE })
  decode(@Param('id', ParseObjectIdPipe) id: Types.ObjectId): DecodedObjectIdResponse {
    return decodeObjectId(id);
  }
}

import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Types } from 'mongoose';
import { decodeObjectId, generateObjectIds, ParseObjectIdPipe } from 'nestjs-objectid';
import { ApiObjectIdParam } from 'nestjs-objectid/swagger';
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
  @ApiBadRequestResponse({ description: `count is not an integer from 1 to ${MAX_GENERATED_IDS}` })
  generate(
    @Query('count', new ParseIntInRangePipe({ min: 1, max: MAX_GENERATED_IDS, defaultValue: 1 })) count: number,
  ): GeneratedObjectIdsResponse {
    return { ids: generateObjectIds(count) };
  }

  @Get(':id/decode')
  @ApiObjectIdParam()
  @ApiOkResponse({ type: DecodedObjectIdResponse })
  @ApiBadRequestResponse({ description: 'The id is not 24 hex characters' })
  decode(@Param('id', ParseObjectIdPipe) id: Types.ObjectId): DecodedObjectIdResponse {
    return decodeObjectId(id);
  }
}

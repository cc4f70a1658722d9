import { ApiServiceUnavailableResponse } from '@nestjs/swagger';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../database/database-unavailable.filter.js';
import { errorExample, ErrorResponse } from './error.response.js';

/** Documents the 503 that every route reading or writing MongoDB can answer while the database is away. */
export function ApiDatabaseUnavailableResponse(): ClassDecorator & MethodDecorator {
  return ApiServiceUnavailableResponse({
    type: ErrorResponse,
    description: 'The database cannot be reached',
    example: errorExample(503, DATABASE_UNAVAILABLE_MESSAGE),
  });
}

import { ApiProperty } from '@nestjs/swagger';
import { ErrorResponse } from '../../common/error.response.js';
import { HealthDependencies } from './health-dependencies.response.js';

/**
 * Body of `503 GET /health`: Nest's error shape, as every other error of the
 * app, plus the state of each dependency, so a monitor sees which one is down.
 */
export class HealthUnavailableResponse extends ErrorResponse {
  @ApiProperty({ type: HealthDependencies, example: { database: 'down' } })
  dependencies!: HealthDependencies;
}

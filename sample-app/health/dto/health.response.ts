import { ApiProperty } from '@nestjs/swagger';
import { HealthDependencies } from './health-dependencies.response.js';

/** Body of a healthy `GET /health`: every dependency is up. */
export class HealthResponse {
  @ApiProperty({ example: 'ok' })
  status!: 'ok';

  @ApiProperty({ type: HealthDependencies, example: { database: 'up' } })
  dependencies!: HealthDependencies & { database: 'up' };
}

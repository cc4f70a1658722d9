import { ApiProperty } from '@nestjs/swagger';

/** Body of a healthy `GET /health`. */
export class HealthResponse {
  @ApiProperty({ example: 'ok' })
  status!: 'ok';

  @ApiProperty({ example: 'up' })
  database!: 'up';
}

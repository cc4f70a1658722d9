import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthResponse } from './dto/health.response.js';
import { HealthUnavailableResponse } from './dto/health-unavailable.response.js';
import { HealthService, healthUnavailableBody } from './health.service.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @ApiOkResponse({ type: HealthResponse, description: 'Every dependency answers: dependencies.database is "up"' })
  @ApiServiceUnavailableResponse({
    type: HealthUnavailableResponse,
    description: 'A dependency does not answer: MongoDB does not answer a ping, so dependencies.database is "down"',
    example: healthUnavailableBody(),
  })
  check(): Promise<HealthResponse> {
    return this.health.check();
  }
}

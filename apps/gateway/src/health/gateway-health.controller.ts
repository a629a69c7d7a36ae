import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ReadinessChecks } from '@mp/health';
import { Public } from '@mp/http-kit';

@ApiTags('health')
@Public()
@Controller('health')
export class GatewayHealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly checks: ReadinessChecks,
  ) {}

  @Get()
  @HealthCheck()
  @ApiOperation({ summary: 'The gateway is ready to take requests (same checks as /health/ready)' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  @ApiServiceUnavailableResponse({ description: 'PostgreSQL or Redis is down' })
  check() {
    return this.health.check(this.checks.all());
  }
}

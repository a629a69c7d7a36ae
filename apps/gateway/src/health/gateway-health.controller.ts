import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ApiReadiness, ReadinessChecks } from '@mp/health';
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
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'The gateway is ready to take requests (same checks as /health/ready)' })
  @ApiReadiness()
  check() {
    return this.health.check(this.checks.all());
  }
}

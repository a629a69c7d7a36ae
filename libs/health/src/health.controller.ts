import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { Public } from '@mp/http-kit';
import { ApiReadiness, LivenessDto } from './health-report.dto';
import { ReadinessChecks } from './readiness.checks';

/** Kubernetes-style probes: live = the process answers; ready = its dependencies answer too. */
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    @Inject(ReadinessChecks) private readonly checks: ReadinessChecks,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process is up and serving HTTP' })
  @ApiOkResponse({ type: LivenessDto, description: 'Alive' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness: PostgreSQL and Redis (and this app’s queue workers) answer' })
  @ApiReadiness()
  ready() {
    return this.health.check(this.checks.all());
  }
}

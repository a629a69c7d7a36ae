import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { ReadinessChecks } from './readiness.checks';

/** GET /health/live and /health/ready, for every app. Needs DatabaseModule and QueueModule. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [ReadinessChecks],
  exports: [ReadinessChecks, TerminusModule],
})
export class HealthModule {}

export * from './health.module';
export * from './health.controller';
export * from './health-report.dto';
export * from './readiness.checks';

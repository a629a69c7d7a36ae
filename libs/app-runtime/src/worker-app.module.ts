import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { AppConfigModule } from './config.module';
import { HealthModule } from '@mp/health';
import { MetricsModule } from '@mp/metrics';
import { DatabaseModule } from '@mp/persistence';
import type { QueueName } from '@mp/queue-contracts';
import { QueueModule } from '@mp/queue-runtime';
import type { WorkerEnv } from './worker.env';

export interface WorkerAppDefinition {
  name: string;
  /** The queues this app consumes; every job of each needs exactly one handler. */
  consume: readonly QueueName[];
  /** The app's own modules: its queue processors. */
  imports?: ModuleMetadata['imports'];
  /** Its statements all find rows by key: plan them once (see DataSourceOptions.genericPlans). */
  genericPlans?: boolean;
}

/** What every worker app is made of: config, database, its queues, health, metrics, and its processors. */
@Module({})
export class WorkerAppModule {
  static forRoot(definition: WorkerAppDefinition, config: WorkerEnv): DynamicModule {
    return {
      module: WorkerAppModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          applicationName: definition.name,
          poolSize: config.DATABASE_POOL_SIZE,
          genericPlans: definition.genericPlans,
          pooler: config.DATABASE_POOLER,
        }),
        QueueModule.forRoot({
          redisUrl: config.REDIS_URL,
          prefix: config.QUEUE_PREFIX,
          appName: definition.name,
          consume: definition.consume,
        }),
        HealthModule,
        MetricsModule.forRoot({ app: definition.name, queues: definition.consume }),
        ...(definition.imports ?? []),
      ],
    };
  }
}

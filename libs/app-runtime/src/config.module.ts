import { DynamicModule, Module } from '@nestjs/common';
import { CommonEnv } from '@mp/config';

/**
 * Makes an app's validated env object injectable, under its own class and as CommonEnv for the
 * shared modules (database, queues, health) that only need the common variables.
 */
@Module({})
export class AppConfigModule {
  static forRoot<T extends CommonEnv>(config: T): DynamicModule {
    const own = config.constructor as new () => T;
    return {
      module: AppConfigModule,
      global: true,
      providers: [
        { provide: own, useValue: config },
        { provide: CommonEnv, useValue: config },
      ],
      exports: [own, CommonEnv],
    };
  }
}

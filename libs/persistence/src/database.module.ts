import { DynamicModule, FactoryProvider, Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createDataSource, type DataSourceOptions } from './data-source';

/**
 * The app's connection pool: the DataSource, connected when the app initialises and closed when it
 * shuts down. The data-access libs' modules provide the repositories and services made from it.
 */
@Module({})
export class DatabaseModule implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  static forRoot(options: DataSourceOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DataSource,
          useFactory: () => createDataSource(options),
        },
      ],
      exports: [DataSource],
    };
  }

  /** Connects when the app initialises, not when the module graph is built (OpenAPI generation). */
  async onModuleInit(): Promise<void> {
    await this.dataSource.initialize();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** A provider of a class made from the data source alone (its constructor's one argument): a repository. */
export function providedWithDataSource<T>(type: new (dataSource: DataSource) => T): FactoryProvider<T> {
  return { provide: type, useFactory: (dataSource: DataSource) => new type(dataSource), inject: [DataSource] };
}

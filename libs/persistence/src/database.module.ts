import { DynamicModule, Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createDataSource, type DataSourceOptions } from './data-source';
import {
  ApiKeyRepository,
  ApplicationRepository,
  CompanyRepository,
  LedgerRepository,
  PriceRepository,
  TemplateRepository,
} from './repositories';

const REPOSITORIES = [
  ApiKeyRepository,
  ApplicationRepository,
  CompanyRepository,
  LedgerRepository,
  PriceRepository,
  TemplateRepository,
];

/** The app's connection pool and repositories; repositories are what services inject. */
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
        ...REPOSITORIES.map((repository) => ({
          provide: repository,
          useFactory: (dataSource: DataSource) => new repository(dataSource),
          inject: [DataSource],
        })),
      ],
      exports: [DataSource, ...REPOSITORIES],
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

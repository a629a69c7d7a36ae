import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKeyRepository } from './api-key.repository';
import { ApplicationRepository } from './application.repository';
import { CatalogService } from './catalog.service';
import { ACCOUNTS_ENTITIES } from './entities';
import { CompanyRepository } from './company.repository';
import { PriceRepository } from './price.repository';
import { TemplateRepository } from './template.repository';

const REPOSITORIES = [ApiKeyRepository, ApplicationRepository, CompanyRepository, PriceRepository, TemplateRepository];

/** A repository on the app's data source, which must have been made with this lib's entities: said at start-up, not at the first request. */
function repositoryOn<T>(repository: new (db: DataSource) => T) {
  return {
    provide: repository,
    useFactory: (db: DataSource) => {
      const registered = (db.options.entities ?? []) as unknown[];
      const missing = ACCOUNTS_ENTITIES.filter((entity) => !registered.includes(entity));
      if (missing.length > 0)
        throw new Error(`AccountsDataModule needs DatabaseModule.forRoot({ entities: ACCOUNTS_ENTITIES }); missing ${missing.map((e) => e.name).join(', ')}`);
      return new repository(db);
    },
    inject: [DataSource],
  };
}

/**
 * Companies, their applications, API keys and templates, and the price table. This lib is the
 * only one that writes the `companies`, `applications`, `api_keys`, `templates` and `prices`
 * tables. Needs DatabaseModule, made with ACCOUNTS_ENTITIES. AccountsService (creating companies and keys) needs the API key
 * pepper too: the admin tool makes it with accountsRepositories.
 */
@Module({
  providers: [
    ...REPOSITORIES.map((repository) => repositoryOn<object>(repository)),
    {
      provide: CatalogService,
      useFactory: (applications: ApplicationRepository, templates: TemplateRepository, prices: PriceRepository) =>
        new CatalogService(applications, templates, prices),
      inject: [ApplicationRepository, TemplateRepository, PriceRepository],
    },
  ],
  exports: [...REPOSITORIES, CatalogService],
})
export class AccountsDataModule {}

import { Module } from '@nestjs/common';
import { providedWithDataSource } from '@mp/persistence';
import { ApiKeyRepository } from './api-key.repository';
import { ApplicationRepository } from './application.repository';
import { CatalogService } from './catalog.service';
import { CompanyRepository } from './company.repository';
import { PriceRepository } from './price.repository';
import { TemplateRepository } from './template.repository';

const REPOSITORIES = [ApiKeyRepository, ApplicationRepository, CompanyRepository, PriceRepository, TemplateRepository];

/**
 * Companies, their applications, API keys and templates, and the price table. This lib is the
 * only one that writes the `companies`, `applications`, `api_keys`, `templates` and `prices`
 * tables. Needs DatabaseModule. AccountsService (creating companies and keys) needs the API key
 * pepper too: the admin tool makes it with accountsRepositories.
 */
@Module({
  providers: [
    ...REPOSITORIES.map((repository) => providedWithDataSource<object>(repository)),
    {
      provide: CatalogService,
      useFactory: (applications: ApplicationRepository, templates: TemplateRepository, prices: PriceRepository) => new CatalogService(applications, templates, prices),
      inject: [ApplicationRepository, TemplateRepository, PriceRepository],
    },
  ],
  exports: [...REPOSITORIES, CatalogService],
})
export class AccountsDataModule {}

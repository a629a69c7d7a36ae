import { Module } from '@nestjs/common';
import { providedWithDataSource } from '@mp/persistence';
import { ApiKeyRepository } from './api-key.repository';
import { ApplicationRepository } from './application.repository';
import { CompanyRepository } from './company.repository';
import { PriceRepository } from './price.repository';
import { TemplateRepository } from './template.repository';

const REPOSITORIES = [ApiKeyRepository, ApplicationRepository, CompanyRepository, PriceRepository, TemplateRepository];

/**
 * Companies, their applications, API keys and templates, and the price table. This lib is the
 * only one that writes the `companies`, `applications`, `api_keys`, `templates` and `prices`
 * tables. Needs DatabaseModule.
 */
@Module({
  providers: REPOSITORIES.map((repository) => providedWithDataSource<object>(repository)),
  exports: REPOSITORIES,
})
export class AccountsDataModule {}

import { ApiKeyEntity } from './api-key.entity';
import { ApplicationEntity } from './application.entity';
import { CompanyEntity } from './company.entity';
import { PriceEntity } from './price.entity';
import { TemplateEntity } from './template.entity';

export { ApiKeyEntity, ApplicationEntity, CompanyEntity, PriceEntity, TemplateEntity };

/**
 * The TypeORM entities of this lib's tables, which its repositories read and write through the
 * ORM: a data source its repositories use must be made with them (createDataSource's `entities`).
 */
export const ACCOUNTS_ENTITIES = [CompanyEntity, ApplicationEntity, ApiKeyEntity, TemplateEntity, PriceEntity];

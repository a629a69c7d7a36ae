import { ApiKeyEntity } from './api-key.entity';
import { ApplicationEntity } from './application.entity';
import { BalanceEntity } from './balance.entity';
import { CompanyEntity } from './company.entity';
import { LedgerEntryEntity } from './ledger-entry.entity';
import { PriceEntity } from './price.entity';
import { TemplateEntity } from './template.entity';

export { ApiKeyEntity, ApplicationEntity, BalanceEntity, CompanyEntity, LedgerEntryEntity, PriceEntity, TemplateEntity };
export { LEDGER_KINDS, type LedgerKind } from './ledger-entry.entity';

export const ENTITIES = [
  CompanyEntity,
  ApplicationEntity,
  ApiKeyEntity,
  TemplateEntity,
  PriceEntity,
  BalanceEntity,
  LedgerEntryEntity,
];

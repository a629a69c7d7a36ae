import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKeyRepository } from './api-key.repository';
import { ApplicationRepository } from './application.repository';
import { CatalogService } from './catalog.service';
import { ACCOUNTS_ENTITIES } from './entities';
import { CompanyRepository } from './company.repository';
import { PriceRepository } from './price.repository';
import { PriceTable } from './price-table';
import { TemplateRepository } from './template.repository';
import { AuditLogRepository } from './people/audit-log.repository';
import { InvitationRepository } from './people/invitation.repository';
import { PeopleService, type PeopleRepositories } from './people/people.service';
import { SessionRepository } from './people/session.repository';
import { UserRepository } from './people/user.repository';
import { WebhookSecrets } from './webhook-secrets';
import { MessagingSettings, SenderRegistry } from './senders';

const REPOSITORIES = [
  ApiKeyRepository,
  ApplicationRepository,
  CompanyRepository,
  PriceRepository,
  TemplateRepository,
  UserRepository,
  SessionRepository,
  InvitationRepository,
  AuditLogRepository,
];

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
 * Companies, their applications, API keys and templates, the price table (PriceTable), and the people of the
 * dashboard (users, sessions, invitations, the audit log). This lib is the only one that writes
 * those tables. Needs DatabaseModule, made with ACCOUNTS_ENTITIES. AccountsService (creating
 * companies and keys) needs the API key pepper and DashboardSessions the session timeouts: the
 * app makes them (accountsRepositories, or its own factory).
 */
@Module({
  providers: [
    ...REPOSITORIES.map((repository) => repositoryOn<object>(repository)),
    {
      provide: CatalogService,
      useFactory: (db: DataSource, applications: ApplicationRepository, templates: TemplateRepository, prices: PriceRepository, audit: AuditLogRepository) =>
        new CatalogService(db, { applications, templates, prices, audit }),
      inject: [DataSource, ApplicationRepository, TemplateRepository, PriceRepository, AuditLogRepository],
    },
    {
      provide: PriceTable,
      useFactory: (db: DataSource, prices: PriceRepository, audit: AuditLogRepository) => new PriceTable(db, prices, audit),
      inject: [DataSource, PriceRepository, AuditLogRepository],
    },
    {
      provide: PeopleService,
      useFactory: (
        db: DataSource,
        users: UserRepository,
        sessions: SessionRepository,
        invitations: InvitationRepository,
        audit: AuditLogRepository,
        companies: CompanyRepository,
      ) => new PeopleService(db, { users, sessions, invitations, audit, companies } satisfies PeopleRepositories),
      inject: [DataSource, UserRepository, SessionRepository, InvitationRepository, AuditLogRepository, CompanyRepository],
    },
    {
      provide: WebhookSecrets,
      useFactory: (db: DataSource, audit: AuditLogRepository) => new WebhookSecrets(db, audit),
      inject: [DataSource, AuditLogRepository],
    },
    {
      provide: SenderRegistry,
      useFactory: (db: DataSource, audit: AuditLogRepository) => new SenderRegistry(db, audit),
      inject: [DataSource, AuditLogRepository],
    },
    {
      provide: MessagingSettings,
      useFactory: (db: DataSource, audit: AuditLogRepository) => new MessagingSettings(db, audit),
      inject: [DataSource, AuditLogRepository],
    },
  ],
  exports: [...REPOSITORIES, CatalogService, PriceTable, PeopleService, WebhookSecrets, SenderRegistry, MessagingSettings],
})
export class AccountsDataModule {}

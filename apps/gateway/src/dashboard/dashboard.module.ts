import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  AccountsDataModule,
  accountsRepositories,
  AccountsService,
  AuditLogRepository,
  BillingSettings,
  DashboardSessions,
  SessionRepository,
} from '@mp/accounts';
import { BillingDataModule } from '@mp/billing';
import { OtpDataModule } from '@mp/otp';
import { GatewayEnv } from '../gateway.env';
import { MessagingDataModule } from '@mp/messaging';
import { PricingModule } from '../pricing/pricing.module';
import { SmsModule } from '../sms/sms.module';
import { ApplicationsController } from './applications.controller';
import { AuditController } from './audit.controller';
import { BillingController } from './billing.controller';
import { CampaignsConsoleController } from './campaigns.controller';
import { CompanyScopes } from './company-scope';
import { DashboardSessionGuard } from './dashboard-session.guard';
import { COOKIE_POLICY } from './dashboard.tokens';
import { KeysController } from './keys.controller';
import { MembersController } from './members.controller';
import { MessagesController } from './messages.controller';
import { OperatorCarriersController } from './operator/carriers.controller';
import { OperatorCompaniesController } from './operator/companies.controller';
import { OperatorMarginsController } from './operator/margins.controller';
import { OperatorOverviewController } from './operator/operator-overview.controller';
import { OperatorPricesController } from './operator/prices.controller';
import type { CookiePolicy } from './session-cookie';
import { SessionController } from './session.controller';
import { SignInThrottle } from './sign-in-throttle.service';
import { TemplatePreviewService } from './template-preview.service';
import { TemplatesController } from './templates.controller';
import { VerificationsController } from './verifications.controller';
import { WebhooksController } from './webhooks.controller';
import { WebhooksDataModule } from '@mp/webhooks-data-access';

const sessionLimits = (config: GatewayEnv) => ({
  idleMs: Math.round(config.DASHBOARD_SESSION_IDLE_MINUTES * 60_000),
  maxMs: Math.round(config.DASHBOARD_SESSION_MAX_HOURS * 3_600_000),
});

/**
 * The dashboard API under /dashboard/api (the web console's): sessions in a cookie, CSRF tokens,
 * roles, keys, members and invitations, the audit log. Thin controllers over the accounts lib;
 * DashboardSessionGuard in place of the API key guard.
 */
@Module({
  imports: [AccountsDataModule, MessagingDataModule, SmsModule, BillingDataModule, OtpDataModule, PricingModule, WebhooksDataModule],
  controllers: [
    SessionController,
    KeysController,
    MembersController,
    AuditController,
    MessagesController,
    CampaignsConsoleController,
    VerificationsController,
    BillingController,
    ApplicationsController,
    TemplatesController,
    WebhooksController,
    OperatorCompaniesController,
    OperatorPricesController,
    OperatorOverviewController,
    OperatorMarginsController,
    OperatorCarriersController,
  ],
  providers: [
    DashboardSessionGuard,
    SignInThrottle,
    CompanyScopes,
    TemplatePreviewService,
    {
      provide: DashboardSessions,
      useFactory: (sessions: SessionRepository, config: GatewayEnv) => new DashboardSessions(sessions, sessionLimits(config)),
      inject: [SessionRepository, GatewayEnv],
    },
    {
      provide: AccountsService,
      useFactory: (db: DataSource, config: GatewayEnv) => new AccountsService(db, accountsRepositories(db), config.API_KEY_PEPPER),
      inject: [DataSource, GatewayEnv],
    },
    {
      provide: BillingSettings,
      useFactory: (db: DataSource, audit: AuditLogRepository) => new BillingSettings(db, audit),
      inject: [DataSource, AuditLogRepository],
    },
    {
      provide: COOKIE_POLICY,
      useFactory: (config: GatewayEnv): CookiePolicy => ({ secure: config.NODE_ENV === 'production', limits: sessionLimits(config) }),
      inject: [GatewayEnv],
    },
  ],
})
export class DashboardModule {}

import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountsDataModule, accountsRepositories, AccountsService, DashboardSessions, SessionRepository } from '@mp/accounts';
import { GatewayEnv } from '../gateway.env';
import { MessagingDataModule } from '@mp/messaging';
import { SmsModule } from '../sms/sms.module';
import { AuditController } from './audit.controller';
import { CampaignsConsoleController } from './campaigns.controller';
import { CompanyScopes } from './company-scope';
import { DashboardSessionGuard } from './dashboard-session.guard';
import { COOKIE_POLICY } from './dashboard.tokens';
import { KeysController } from './keys.controller';
import { MembersController } from './members.controller';
import { MessagesController } from './messages.controller';
import type { CookiePolicy } from './session-cookie';
import { SessionController } from './session.controller';
import { SignInThrottle } from './sign-in-throttle.service';

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
  imports: [AccountsDataModule, MessagingDataModule, SmsModule],
  controllers: [SessionController, KeysController, MembersController, AuditController, MessagesController, CampaignsConsoleController],
  providers: [
    DashboardSessionGuard,
    SignInThrottle,
    CompanyScopes,
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
      provide: COOKIE_POLICY,
      useFactory: (config: GatewayEnv): CookiePolicy => ({ secure: config.NODE_ENV === 'production', limits: sessionLimits(config) }),
      inject: [GatewayEnv],
    },
  ],
})
export class DashboardModule {}

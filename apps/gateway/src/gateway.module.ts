import { DynamicModule, Module } from '@nestjs/common';
import { ACCOUNTS_ENTITIES } from '@mp/accounts';
import { AppConfigModule } from '@mp/app-runtime';
import { HealthModule } from '@mp/health';
import { MetricsModule } from '@mp/metrics';
import { DatabaseModule } from '@mp/persistence';
import { ALL_QUEUES } from '@mp/queue-contracts';
import { QueueModule } from '@mp/queue-runtime';
import { AuthModule } from './auth/auth.module';
import { BalanceModule } from './balance/balance.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { GatewayEnv } from './gateway.env';
import { GatewayHealthController } from './health/gateway-health.controller';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { InboundModule } from './inbound/inbound.module';
import { OptOutsModule } from './opt-outs/opt-outs.module';
import { OtpModule } from './otp/otp.module';
import { SendersModule } from './senders/senders.module';
import { SmsModule } from './sms/sms.module';
import { UsageModule } from './usage/usage.module';
import { WhatsAppWebhookModule } from './whatsapp/whatsapp-webhook.module';

export const APP_NAME = 'gateway';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayEnv): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          applicationName: APP_NAME,
          poolSize: config.DATABASE_POOL_SIZE,
          entities: ACCOUNTS_ENTITIES,
          pooler: config.DATABASE_POOLER,
        }),
        QueueModule.forRoot({ redisUrl: config.REDIS_URL, prefix: config.QUEUE_PREFIX, appName: APP_NAME, consume: [] }),
        HealthModule,
        // Every queue's depth and the outbox: the gateway adds their jobs and runs in every deployment.
        MetricsModule.forRoot({ app: APP_NAME, queues: ALL_QUEUES, outbox: true }),
        AuthModule,
        BalanceModule,
        SendersModule,
        InboundModule,
        SmsModule,
        UsageModule,
        OptOutsModule,
        OtpModule,
        WhatsAppWebhookModule,
        IdempotencyModule,
        DashboardModule,
      ],
      controllers: [GatewayHealthController],
    };
  }
}

import { Module } from '@nestjs/common';
import { AccountsDataModule } from '@mp/accounts';
import { MessagingDataModule } from '@mp/messaging';
import { OtpDataModule, OtpSendingModule } from '@mp/otp';
import { parseTextKey } from '@mp/otp-domain';
import { GatewayEnv } from '../gateway.env';
import { PricingModule } from '../pricing/pricing.module';
import { SendersModule } from '../senders/senders.module';
import { OtpFraudGuard } from './otp-fraud-guard.service';
import { OtpManagementController } from './otp-management.controller';
import { OtpManagementService } from './otp-management.service';
import { OtpOptOutPolicy } from './otp-opt-out-policy.service';
import { OtpRateLimiter } from './otp-rate-limiter.service';
import { OtpController } from './otp.controller';
import { OtpService } from './otp.service';

@Module({
  imports: [
    AccountsDataModule,
    MessagingDataModule,
    OtpDataModule,
    OtpSendingModule.forRoot({
      inject: [GatewayEnv],
      useFactory: (config: GatewayEnv) => ({ hash: Buffer.from(config.OTP_HASH_KEY, 'base64'), text: parseTextKey(config.OTP_TEXT_KEY) }),
    }),
    PricingModule,
    SendersModule,
  ],
  controllers: [OtpController, OtpManagementController],
  providers: [OtpService, OtpRateLimiter, OtpFraudGuard, OtpManagementService, OtpOptOutPolicy],
})
export class OtpModule {}

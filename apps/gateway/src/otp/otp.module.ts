import { Module } from '@nestjs/common';
import { AccountsDataModule } from '@mp/accounts';
import { PricingModule } from '../pricing/pricing.module';
import { OtpFraudGuard } from './otp-fraud-guard.service';
import { OtpManagementController } from './otp-management.controller';
import { OtpManagementService } from './otp-management.service';
import { OtpRateLimiter } from './otp-rate-limiter.service';
import { OtpController } from './otp.controller';
import { OtpService } from './otp.service';

@Module({
  imports: [AccountsDataModule, PricingModule],
  controllers: [OtpController, OtpManagementController],
  providers: [OtpService, OtpRateLimiter, OtpFraudGuard, OtpManagementService],
})
export class OtpModule {}

import { Module } from '@nestjs/common';
import { PricingModule } from '../pricing/pricing.module';
import { OtpFraudGuard } from './otp-fraud-guard.service';
import { OtpRateLimiter } from './otp-rate-limiter.service';
import { OtpController } from './otp.controller';
import { OtpService } from './otp.service';

@Module({ imports: [PricingModule], controllers: [OtpController], providers: [OtpService, OtpRateLimiter, OtpFraudGuard] })
export class OtpModule {}

import { Module } from '@nestjs/common';
import { OtpMessageSettledProcessor } from './otp-delivered.processor';
import { OtpExpirySweeper } from './otp-expiry-sweeper.service';

/** What happens to an OTP after it is sent: delivered, failed (its message was not), expired. */
@Module({ providers: [OtpMessageSettledProcessor, OtpExpirySweeper] })
export class LifecycleModule {}

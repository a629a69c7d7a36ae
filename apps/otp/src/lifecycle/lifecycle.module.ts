import { Module } from '@nestjs/common';
import { OtpDataModule } from '@mp/otp';
import { OtpMessageSettledProcessor } from './otp-delivered.processor';
import { OtpExpirySweeper } from './otp-expiry-sweeper.service';

/** What happens to an OTP after it is sent: delivered, failed (its message was not), expired. */
@Module({ imports: [OtpDataModule], providers: [OtpMessageSettledProcessor, OtpExpirySweeper] })
export class LifecycleModule {}

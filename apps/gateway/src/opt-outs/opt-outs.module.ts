import { Module } from '@nestjs/common';
import { MessagingDataModule } from '@mp/messaging';
import { OptOutsController } from './opt-outs.controller';
import { OptOutsService } from './opt-outs.service';

/** /sms/opt-outs: the company's suppression list (its checks on the send paths are in sms/ and otp/). */
@Module({
  imports: [MessagingDataModule],
  controllers: [OptOutsController],
  providers: [OptOutsService],
})
export class OptOutsModule {}

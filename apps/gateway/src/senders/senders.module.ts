import { Module } from '@nestjs/common';
import { AccountsDataModule } from '@mp/accounts';
import { SenderPolicy } from './sender-policy.service';
import { SendersController } from './senders.controller';
import { StatusCallbacks } from './status-callbacks.service';

/** The company's numbers and sender ids, which sends are checked against, and its messaging settings. */
@Module({
  imports: [AccountsDataModule],
  controllers: [SendersController],
  providers: [SenderPolicy, StatusCallbacks],
  exports: [SenderPolicy, StatusCallbacks],
})
export class SendersModule {}

import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsDataModule } from '@mp/accounts';
import { ApiAuthGuard } from './api-auth.guard';
import { AuthController } from './auth.controller';
import { AuthThrottle } from './auth-throttle.service';
import { Authenticator } from './authenticator.service';

@Module({
  imports: [AccountsDataModule],
  controllers: [AuthController],
  providers: [Authenticator, AuthThrottle, { provide: APP_GUARD, useClass: ApiAuthGuard }],
  exports: [Authenticator],
})
export class AuthModule {}

import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsDataModule, ApiKeyRepository } from '@mp/accounts';
import { ApiAuthGuard } from './api-auth.guard';
import { AuthController } from './auth.controller';
import { AuthThrottle } from './auth-throttle.service';
import { Authenticator } from './authenticator.service';
import { KeyUsage } from './key-usage.service';

@Module({
  imports: [AccountsDataModule],
  controllers: [AuthController],
  providers: [
    Authenticator,
    AuthThrottle,
    { provide: KeyUsage, useFactory: (keys: ApiKeyRepository) => new KeyUsage(keys), inject: [ApiKeyRepository] },
    { provide: APP_GUARD, useClass: ApiAuthGuard },
  ],
  exports: [Authenticator],
})
export class AuthModule {}

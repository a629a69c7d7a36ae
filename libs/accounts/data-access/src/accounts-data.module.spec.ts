import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DatabaseModule } from '@mp/persistence';
import { AccountsDataModule } from './accounts-data.module';

describe('AccountsDataModule', () => {
  it('refuses to start on a data source made without its entities, naming what is missing (never reaching the database)', async () => {
    @Module({ imports: [DatabaseModule.forRoot({ url: 'postgres://nobody@127.0.0.1:1/none', applicationName: 'accounts-module-test' }), AccountsDataModule] })
    class WithoutEntities {}
    await expect(NestFactory.createApplicationContext(WithoutEntities, { logger: false, abortOnError: false })).rejects.toThrow(
      'AccountsDataModule needs DatabaseModule.forRoot({ entities: ACCOUNTS_ENTITIES }); missing CompanyEntity, ApplicationEntity, ApiKeyEntity, TemplateEntity, PriceEntity',
    );
  });
});

import { Module } from '@nestjs/common';
import { AccountsDataModule } from '@mp/accounts';
import { PriceBook } from './price-book.service';

/** The price table, cached, for every endpoint that charges. */
@Module({ imports: [AccountsDataModule], providers: [PriceBook], exports: [PriceBook] })
export class PricingModule {}

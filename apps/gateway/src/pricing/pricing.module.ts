import { Module } from '@nestjs/common';
import { PriceBook } from './price-book.service';

/** The price table, cached, for every endpoint that charges. */
@Module({ providers: [PriceBook], exports: [PriceBook] })
export class PricingModule {}

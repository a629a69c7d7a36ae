import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PRICE_ROUTES } from '@mp/billing-domain';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Integer, Money, Nested, NullableText, NullableTimestamp, OneOf, Text, Timestamp, Uuid } from '../../openapi/schema-properties';

// The operators' part of the dashboard API (docs/dashboard-api.json): companies, top-ups, prices
// and the platform's overview. class-validator runs a property's decorators bottom-up.

export const COMPANY_STATUSES = ['active', 'suspended'] as const;

export class OperatorCompanyDto {
  @Uuid() id: string;
  @Text({ example: 'Acme' }) name: string;
  @Text({ example: 'EUR' }) currency: string;
  @Money('The balance') balance: number;
  @OneOf([...COMPANY_STATUSES], { description: 'suspended: the public API refuses its keys (403) and its dashboard users change nothing' })
  status: string;
  @NullableTimestamp('When it was suspended; null while active') suspended_at: string | null;
  @Timestamp() created_at: string;
}

export class OperatorCompanyListDto {
  @Nested([OperatorCompanyDto], { description: 'Every company, by name' }) items: OperatorCompanyDto[];
}

export class CreateCompanyRequestDto {
  @ApiProperty({ example: 'Acme', description: '1 to 100 characters' })
  @MaxLength(200, { message: 'name is too long' })
  @IsString({ message: 'name must be a string' })
  @IsNotEmpty({ message: 'name is required' })
  name: string;

  @ApiPropertyOptional({ example: 'EUR', description: 'ISO 4217 code; EUR unless given' })
  @MaxLength(3, { message: 'currency must be a 3-letter code' })
  @IsString({ message: 'currency must be a string' })
  @IsOptional()
  currency?: string;

  @ApiPropertyOptional({ example: '25.00', description: 'Opening balance, an exact decimal string with at most 4 decimals; 0 unless given' })
  @MaxLength(40, { message: 'balance is too long' })
  @IsString({ message: 'balance must be a decimal string, e.g. "25.00"' })
  @IsOptional()
  balance?: string;
}

export class CreatedCompanyDto {
  @Nested(OperatorCompanyDto) company: OperatorCompanyDto;
  @Text({ example: 'app_3f2a…', description: 'Its first application' }) appid: string;
  @Text({ example: 'mpk_3kq0xZ1c2v9oA7Yt0b5R1Q', description: 'Its first API key' }) api_key: string;
  @Text({ description: 'Shown only in this answer: it is stored as a keyed hash' }) api_secret: string;
}

export class TopUpRequestDto {
  @ApiProperty({ example: '50.00', description: 'What is credited: an exact decimal string, more than zero, at most 4 decimals' })
  @MaxLength(40, { message: 'amount is too long' })
  @IsString({ message: 'amount must be a decimal string, e.g. "50.00"' })
  @IsNotEmpty({ message: 'amount is required' })
  amount: string;

  @ApiPropertyOptional({
    example: 'wire 2026-11-26',
    description: 'Kept on the ledger entry; a second top-up of the company with the same reference is refused (409)',
  })
  @MaxLength(200, { message: 'reference is too long' })
  @IsString({ message: 'reference must be a string' })
  @IsOptional()
  reference?: string;
}

export class TopUpDto {
  @Uuid() company_id: string;
  @Money('Credited') amount: number;
  @Money('The balance right after it') balance: number;
  @NullableText({ description: 'The reference given, if any' }) reference: string | null;
}

export class PriceDto {
  @Text({ example: '+44', description: '"+" and up to 15 digits; "+" alone is every number. The longest matching prefix applies' }) prefix: string;
  @OneOf([...PRICE_ROUTES]) route: string;
  @Money('Per SMS part (per message on WhatsApp)') price: number;
}

export class PriceListDto {
  @Nested([PriceDto], { description: 'By prefix, then route' }) items: PriceDto[];
}

export class SetPriceRequestDto {
  @ApiProperty({ example: '+44' })
  @MaxLength(40, { message: 'prefix is too long' })
  @IsString({ message: 'prefix must be a string' })
  @IsNotEmpty({ message: 'prefix is required' })
  prefix: string;

  @ApiProperty({ enum: [...PRICE_ROUTES], example: 'auto' })
  @MaxLength(40, { message: 'route is too long' })
  @IsString({ message: 'route must be a string' })
  @IsNotEmpty({ message: 'route is required' })
  route: string;

  @ApiProperty({ example: '0.035', description: 'An exact decimal string, zero or more, at most 4 decimals' })
  @MaxLength(40, { message: 'price is too long' })
  @IsString({ message: 'price must be a decimal string, e.g. "0.035"' })
  @IsNotEmpty({ message: 'price is required' })
  price: string;
}

export class ImportPricesRequestDto {
  @ApiProperty({
    example: 'prefix,route,price\r\n+44,auto,0.0350\r\n',
    description: 'The CSV text: a header naming prefix, route and price, then one price a line (as GET /dashboard/api/operator/prices.csv writes it)',
  })
  @IsString({ message: 'csv must be a string' })
  @IsNotEmpty({ message: 'csv is required' })
  csv: string;
}

export class ImportedPricesDto {
  @Integer({ minimum: 1, description: 'Prices set (each replacing the earlier price of its prefix and route); prices the file leaves out are kept' })
  imported: number;
}

export class QueueDepthDto {
  @Text({ example: 'sms.dispatch' }) queue: string;
  @Integer({ minimum: 0, description: 'Waiting to start (prioritized ones included)' }) waiting: number;
  @Integer({ minimum: 0 }) active: number;
  @Integer({ minimum: 0, description: 'Waiting for a time: scheduled or backing off before a retry' }) delayed: number;
  @Integer({ minimum: 0, description: 'Failed for good and kept for inspection' }) failed: number;
}

export class SmscBindDto {
  @Text({ example: 'default', description: 'The route whose parts it carries; `default`: the SMSC of routes without one of their own' }) route: string;
  @Integer({ minimum: 1, description: 'Its number within the route on its dispatcher' }) bind: number;
  @Text({ example: 'smsc.example.net:2775' }) smsc: string;
  @Text({ example: 'gw-1:4242', description: 'The sms-dispatcher process holding it (host:pid)' }) dispatcher: string;
  @OneOf(['idle', 'connecting', 'bound', 'closing', 'closed']) state: string;
  @Timestamp('Since when it has been in this state') since: string;
}

export class OperatorOverviewDto {
  @Nested([QueueDepthDto], { description: 'Every queue of the platform' }) queues: QueueDepthDto[];
  @Nested([SmscBindDto], { description: 'Every bind of every live sms-dispatcher (each publishes its own every 10 s; one silent for 30 s drops out)' })
  binds: SmscBindDto[];
  @Timestamp('When this was read') read_at: string;
}

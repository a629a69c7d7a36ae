import { MARGIN_DIMENSIONS } from '@mp/messaging';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Integer, Money, Nested, OneOf, Text } from '../../openapi/schema-properties';

// The operators' margin report (docs/dashboard-api.json): `admin report:margins` over HTTP.

export class MarginSumsDto {
  @Integer({ description: 'Parts of the messages accepted in the group' }) parts: number;
  @Money('Their price, as charged at acceptance') charged: number;
  @Money('What of it was refunded since (cancelled messages, parts that never reached a carrier)') refunded: number;
  @Money('charged less refunded') net_charged: number;
  @Money('What the carriers that took the parts charge, for the parts whose cost is known') cost: number;
  @Integer({ description: 'Parts whose carrier cost is unknown (their route has no cost, or they were not sent yet): left out of the margin' })
  uncosted_parts: number;
  @Money('Their net charge, also left out of the margin') uncosted_charged: number;
  @Money('Net charged of the parts with a known cost, less their cost') margin: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    example: 71.43,
    description: 'margin over the net charged it is taken from, in percent with 2 decimals; null when that is 0',
  })
  margin_percent: number | null;
  @Integer({
    description:
      "Parts whose submit to this line's carrier timed out before another carrier took them (not in `parts`): the carrier may have taken and charged for them too, at a cost not recorded, so not in `cost` or `margin`",
  })
  timed_out_parts: number;
}

export class MarginLineDto extends MarginSumsDto {
  @ApiPropertyOptional({ type: String, format: 'date', example: '2026-11-20', description: 'The UTC day the messages were accepted (grouped by day)' })
  day?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'GB',
    description: "The recipients' country, ISO 3166-1 alpha-2; null: non-geographic (grouped by country)",
  })
  country?: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'uk-cheap',
    description: 'The carrier that took the parts; null: none did (grouped by carrier)',
  })
  carrier?: string | null;
}

export class MarginReportDto {
  @Text({ example: '2026-11-01', description: 'First UTC day, included' }) from: string;
  @Text({ example: '2026-11-30', description: 'Last UTC day, included' }) to: string;
  @OneOf([...MARGIN_DIMENSIONS], { isArray: true, description: 'The dimensions of the lines, in order' }) by: string[];
  @Nested([MarginLineDto], { description: 'A line per group with parts, by day, then country, then carrier; no country or carrier last' })
  lines: MarginLineDto[];
  @Nested(MarginSumsDto, { description: 'Every part of the range' }) total: MarginSumsDto;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OPT_OUT_SOURCES } from '@mp/messaging';
import { FailedNumberDto } from '../openapi/error-responses';
import { Integer, Nested, NullableText, OneOf, SuccessEnvelopeDto, Text, Timestamp } from '../openapi/schema-properties';

const NUMBER_RULE =
  "The company's number (or sender id) the contact opted out of, as a send's `from` names it; null: every number of the company (what `STOPALL` does).";

export class OptOutDto {
  @Text({ example: '+447911123456', description: 'The contact, in E.164' }) phone: string;
  @NullableText({ example: '+447400900123', description: NUMBER_RULE }) number: string | null;
  @OneOf(OPT_OUT_SOURCES, { description: 'How it came: a keyword (STOP), the API, an import, the console, the operator' }) source: string;
  @Timestamp('When the contact opted out') created_at: string;
}

export class OptOutPageDto {
  @Nested([OptOutDto], { description: 'Newest entries first' }) items: OptOutDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` with the same filters for the next page; null on the last' })
  next_cursor: string | null;
}

export class OptOutListResponseDto extends SuccessEnvelopeDto {
  @Nested(OptOutPageDto) data: OptOutPageDto;
}

/** One entry to add: the contact, the number it opted out of, how and when. */
export class OptOutEntryDto {
  @ApiProperty({ example: '+447911123456', description: 'The contact, in E.164 (a missing `+` is accepted)' }) phone: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '+447400900123', description: `${NUMBER_RULE} Default null.` }) number?: string | null;
  @ApiPropertyOptional({ enum: [...OPT_OUT_SOURCES], default: 'api', description: 'How the opt-out came to you (an import keeps its own)' }) source?: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'When the contact opted out (not in the future); default now' })
  created_at?: string;
}

export class OptOutImportDto extends OptOutEntryDto {
  @ApiPropertyOptional({
    type: [OptOutEntryDto],
    description: 'Many entries at once (at most 10,000), instead of the one entry of the other fields',
  })
  opt_outs?: OptOutEntryDto[];
}

export class OptOutsAddedDto {
  @Integer({ minimum: 1, description: 'Entries in the request' }) received: number;
  @Integer({ minimum: 0, description: 'Entries new to the list' }) added: number;
  @Integer({ minimum: 0, description: 'Entries already on it, kept as they were (their source and time unchanged)' }) already_listed: number;
  @Nested([FailedNumberDto], { description: 'Entries refused, with why; the others were added' }) failed_numbers: FailedNumberDto[];
}

export class OptOutsAddedResponseDto extends SuccessEnvelopeDto {
  @Nested(OptOutsAddedDto) data: OptOutsAddedDto;
}

export class OptOutRemovedDto {
  @Text({ example: '+447911123456' }) phone: string;
  @NullableText({ description: 'The number whose entry was removed; null when every entry of the phone was' }) number: string | null;
  @Integer({ minimum: 1, description: 'Entries removed' }) removed: number;
}

export class OptOutRemovedResponseDto extends SuccessEnvelopeDto {
  @Nested(OptOutRemovedDto) data: OptOutRemovedDto;
}

import { ApiProperty } from '@nestjs/swagger';
import { Integer, Nested, NullableText, OneOf, Text, Timestamp } from '../openapi/schema-properties';

// The answers of the console's verifications page (docs/dashboard-api.json).

const NullableSeconds = (description: string) => ApiProperty({ type: 'number', nullable: true, example: 12.5, description });

export class VerificationCountsDto {
  @Integer({ description: 'OTPs sent (an OTP resent counts once, on the day it was first sent)' }) sent: number;
  @Integer({ description: 'Of them, verified' }) verified: number;
  @ApiProperty({ type: 'number', example: 0.75, description: 'verified / sent, 4 decimals; 0 when none was sent' }) conversion_rate: number;
  @NullableSeconds('Median seconds from send to verify over the verified ones; null when none was verified') median_seconds: number | null;
  @NullableSeconds('95th percentile of the same; null when none was verified') p95_seconds: number | null;
}

export class VerificationDayDto extends VerificationCountsDto {
  @Text({ example: '2026-11-26', description: 'UTC day, YYYY-MM-DD' }) day: string;
}

export class VerificationRowDto extends VerificationDayDto {
  @OneOf(['sms', 'whatsapp']) channel: string;
  @NullableText({ example: 'GB', description: "The recipient's country (ISO 3166-1 alpha-2); null for a non-geographic number" }) country: string | null;
}

export class VerificationStatsDto {
  @Timestamp('Start of the range (inclusive)') from: string;
  @Timestamp('End of the range (exclusive)') to: string;
  @Nested([VerificationDayDto], { description: 'Every UTC day of the range, oldest first, zeros on a day without OTPs' }) days: VerificationDayDto[];
  @Nested([VerificationRowDto], { description: 'Per UTC day, channel and country, for the days that had OTPs' }) rows: VerificationRowDto[];
  @Nested(VerificationCountsDto, { description: 'The whole range' }) totals: VerificationCountsDto;
}

export class OtpBlockDto {
  @Timestamp('When the third wrong code came') blocked_at: string;
  @Timestamp('When the block ends: verify and send answer 429 until then') blocked_until: string;
  @ApiProperty({ type: Boolean, description: 'Whether the block still holds' }) active: boolean;
  @Text({ example: '+447911123456' }) recipient: string;
  @Text({ example: 'app_0123456789abcdef0123' }) appid: string;
  @NullableText({ description: 'The OTP whose code was wrong the third time' }) verification_id: string | null;
}

export class OtpBlockPageDto {
  @Nested([OtpBlockDto]) items: OtpBlockDto[];
  @NullableText({ description: 'Pass it as `cursor` for the next (older) page; null on the last' }) next_cursor: string | null;
}

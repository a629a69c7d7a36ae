import { ApiProperty } from '@nestjs/swagger';
import { OTP_LOG_ENTRY_EVENTS } from '@mp/otp';
import { OTP_ATTEMPT_OUTCOMES, OTP_FAILURE_REASONS, OTP_STATES } from '@mp/otp-domain';

// Response schemas of the GET /otp/* management endpoints. Query parameters are read and checked
// by otp-management-query.ts (and documented with @ApiQuery on the controller).

const CHANNELS = ['sms', 'whatsapp'];

class SuccessEnvelopeDto {
  @ApiProperty({ type: String, enum: ['success'], example: 'success' })
  status: 'success';

  @ApiProperty()
  message: string;
}

/** Pagination of every list: `data: { items, page, limit, total }`. */
class PageDto {
  @ApiProperty({ type: 'integer', example: 1, description: 'The page answered, from 1' })
  page: number;

  @ApiProperty({ type: 'integer', example: 20, description: 'Items per page (at most 100)' })
  limit: number;

  @ApiProperty({ type: 'integer', example: 42, description: 'Items matching the filters, over all pages' })
  total: number;
}

export class OtpRecordDto {
  @ApiProperty({ format: 'uuid' }) verification_id: string;
  @ApiProperty({ example: 'app_1a2b3c' }) appid: string;
  @ApiProperty({ example: '+447911123456' }) recipient: string;
  @ApiProperty({ enum: CHANNELS }) channel: string;
  @ApiProperty({ enum: OTP_STATES, description: 'A pending OTP past `expires_at` reads `expired`' }) status: string;
  @ApiProperty({ example: 'OTP' }) sender: string;
  @ApiProperty({ example: 'en' }) lang: string;
  @ApiProperty({ format: 'date-time' }) expires_at: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'Last send or resend' }) last_sent_at: string;
  @ApiProperty({ type: 'integer', example: 0, description: 'Resends so far (at most 5)' }) resends: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) verified_at: string | null;
  @ApiProperty({ example: 0.01, description: 'Charged for the OTP, resends included (exact, 4 decimals)' }) cost: number;
  @ApiProperty({
    enum: OTP_FAILURE_REASONS,
    nullable: true,
    type: String,
    description:
      'Why a `failed` OTP failed (null otherwise): `too_many_attempts` (3 wrong codes), or its code never reached the handset: `undelivered`, `rejected` (by the carrier), `expired` (the carrier gave up), `not_sent` (never reached a carrier). One whose code never arrived may be resent.',
  })
  failure_reason: string | null;
  @ApiProperty({ nullable: true, type: String, example: null, description: "The carrier's error code of a failed delivery, when it gave one" }) error_code:
    string | null;
}

export class OtpStatusResponseDto extends SuccessEnvelopeDto {
  @ApiProperty({ type: OtpRecordDto }) data: OtpRecordDto;
}

export class OtpListDto extends PageDto {
  @ApiProperty({ type: [OtpRecordDto], description: 'Newest first' }) items: OtpRecordDto[];
}

export class OtpListResponseDto extends SuccessEnvelopeDto {
  @ApiProperty({ type: OtpListDto }) data: OtpListDto;
}

export class OtpLogEntryDto {
  @ApiProperty({ type: 'integer', example: 812 }) id: number;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'Null for a refused send (no OTP was created)' }) verification_id: string | null;
  @ApiProperty({ nullable: true, type: String }) appid: string | null;
  @ApiProperty({ nullable: true, type: String }) recipient: string | null;
  @ApiProperty({ enum: OTP_LOG_ENTRY_EVENTS }) event: string;
  @ApiProperty({
    type: Object,
    example: { channel: 'sms' },
    description: '`sent`: channel; `resent`: resend number; `blocked`: until; `failed`: message_id, reason, error_code; `refused`: reason',
  })
  detail: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class OtpLogsDto extends PageDto {
  @ApiProperty({ type: [OtpLogEntryDto], description: 'Newest first' }) items: OtpLogEntryDto[];
}

export class OtpLogsResponseDto extends SuccessEnvelopeDto {
  @ApiProperty({ type: OtpLogsDto }) data: OtpLogsDto;
}

export class OtpAttemptDto {
  @ApiProperty({ type: 'integer', example: 311 }) id: number;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) verification_id: string | null;
  @ApiProperty() appid: string;
  @ApiProperty() recipient: string;
  @ApiProperty({ enum: OTP_ATTEMPT_OUTCOMES }) outcome: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class OtpAttemptsDto extends PageDto {
  @ApiProperty({ type: [OtpAttemptDto], description: 'Newest first' }) items: OtpAttemptDto[];
}

export class OtpAttemptsResponseDto extends SuccessEnvelopeDto {
  @ApiProperty({ type: OtpAttemptsDto }) data: OtpAttemptsDto;
}

export class BlockedRecipientDto {
  @ApiProperty() appid: string;
  @ApiProperty() recipient: string;
  @ApiProperty({ format: 'date-time', description: 'Verify and send refuse this recipient (429) until then' }) blocked_until: string;
}

export class OtpRateLimitsDto {
  @ApiProperty({ type: 'integer', example: 20, description: 'OTP sends and resends allowed per rolling window' }) limit: number;
  @ApiProperty({ type: 'integer', example: 2 }) used: number;
  @ApiProperty({ type: 'integer', example: 18 }) remaining: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the oldest counted send leaves the window; null when none is counted' })
  reset_at: string | null;
  @ApiProperty({ type: 'integer', example: 60 }) window_seconds: number;
  @ApiProperty({ type: [BlockedRecipientDto], description: 'Recipients blocked now after 3 wrong codes within 30 minutes' })
  blocked_recipients: BlockedRecipientDto[];
}

export class OtpRateLimitsResponseDto extends SuccessEnvelopeDto {
  @ApiProperty({ type: OtpRateLimitsDto }) data: OtpRateLimitsDto;
}

export class OtpReportRowDto {
  @ApiProperty({ example: '2026-11-22', description: 'UTC day the OTPs were created' }) day: string;
  @ApiProperty({ enum: CHANNELS }) channel: string;
  @ApiProperty() appid: string;
  @ApiProperty({ type: 'integer', example: 10, description: 'OTPs created' }) sent: number;
  @ApiProperty({ type: 'integer', example: 8 }) verified: number;
  @ApiProperty({ type: 'integer', example: 1 }) expired: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Failed: wrong codes used up, or the code never reached the handset' }) failed: number;
  @ApiProperty({ example: 0.8, description: 'verified / sent, 4 decimals; 0 when none was sent' }) conversion_rate: number;
  @ApiProperty({ example: 0.11, description: 'Charged for these OTPs, resends included (exact)' }) cost: number;
}

export class OtpReportTotalsDto {
  @ApiProperty({ type: 'integer' }) sent: number;
  @ApiProperty({ type: 'integer' }) verified: number;
  @ApiProperty({ type: 'number' }) conversion_rate: number;
  @ApiProperty({ type: 'number', description: 'Charged (exact)' }) cost: number;
}

export class OtpReportDto {
  @ApiProperty({ format: 'date-time', description: 'Start of the range (inclusive)' }) from: string;
  @ApiProperty({ format: 'date-time', description: 'End of the range (inclusive)' }) to: string;
  @ApiProperty({ type: [OtpReportRowDto], description: 'By day, then appid, then channel' }) rows: OtpReportRowDto[];
  @ApiProperty({ type: OtpReportTotalsDto }) totals: OtpReportTotalsDto;
}

export class OtpReportResponseDto extends SuccessEnvelopeDto {
  @ApiProperty({ type: OtpReportDto }) data: OtpReportDto;
}

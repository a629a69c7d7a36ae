import type { Type } from '@nestjs/common';
import { ApiPropertyOptional, ApiResponse, type ApiResponseOptions } from '@nestjs/swagger';
import { OTP_FAILURE_REASONS } from '@mp/otp-domain';
import { Integer, Money, OptionalInteger, OptionalNested, Text } from './schema-properties';

// The failure bodies: `{ error }` plus the fields documented for that failure, nothing else.
// The answers every route of a kind gives (401, 503, malformed JSON, 413, 415, Idempotency-Key's
// 409) are added by addHttpLayerAnswers; the decorators below are for a route's own failures.

export class ErrorBodyDto {
  @Text({ example: 'Unauthorized', description: 'What went wrong, for people; present on every failure' }) error: string;
}

export class FieldErrorDto {
  @Text({ example: 'to' }) field: string;
  @Text({ example: 'to is required' }) error: string;
}

export class ValidationErrorBodyDto extends ErrorBodyDto {
  @OptionalNested([FieldErrorDto], { description: 'Every field that failed validation (when the body was checked field by field)' })
  details?: FieldErrorDto[];
}

/** A number that was not sent, as given (trimmed), and why. */
export class FailedNumberDto {
  @Text({ example: '+4478000' }) number: string;
  @Text({ example: 'Invalid phone number format' }) error: string;
}

export class NoValidNumberErrorBodyDto extends ValidationErrorBodyDto {
  @OptionalNested([FailedNumberDto], { description: 'When several numbers were given and none was valid: each of them and why' })
  failed_numbers?: FailedNumberDto[];
}

export class BulkBadRequestBodyDto extends ErrorBodyDto {
  @OptionalNested([FailedNumberDto], { description: 'When no entry could be sent: each entry and why' })
  failed_numbers?: FailedNumberDto[];
}

export class InsufficientBalanceBodyDto extends ErrorBodyDto {
  @Money('Balance now') balance: number;
  @Money('What the request would have cost') cost: number;
}

export class BulkInsufficientBalanceBodyDto extends ErrorBodyDto {
  @Money('Balance now') balance: number;
  @Money('What the whole campaign would have cost') required: number;
  @Integer({ description: 'Recipients that would have been charged (valid numbers)' }) recipients: number;
}

export class RetryAfterBodyDto extends ErrorBodyDto {
  @Integer({ minimum: 0, example: 42, description: 'Seconds to wait; also in the `Retry-After` header' }) retry_after: number;
}

export class VerifyBadRequestBodyDto extends ValidationErrorBodyDto {
  @OptionalInteger({ minimum: 0, description: 'With `Invalid OTP code`: wrong codes this recipient may still try before the block' })
  attempts_remaining?: number;
  @ApiPropertyOptional({ type: String, enum: [...OTP_FAILURE_REASONS], description: 'With a failed OTP: why it failed' })
  failure_reason?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: "With a failed OTP: the carrier's error code, null when it gave none" })
  error_code?: string | null;
}

export class NotCancellableBodyDto extends ErrorBodyDto {
  @Text({ example: 'sent', description: "The message's status, which is not `scheduled`" }) status: string;
}

export const RETRY_AFTER_HEADER = {
  'Retry-After': { required: true, description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } },
} as const;

const answer = (status: number, type: Type<unknown>, description: string, extra: Partial<ApiResponseOptions> = {}) =>
  ApiResponse({ status, type, description, ...extra } as ApiResponseOptions);

export const ApiBadRequest = (description: string, type: Type<unknown> = ValidationErrorBodyDto) => answer(400, type, description);
export const ApiForbidden = (description: string) => answer(403, ErrorBodyDto, description);
export const ApiNotFound = (description: string) => answer(404, ErrorBodyDto, description);
export const ApiConflict = (description: string, type: Type<unknown> = ErrorBodyDto) => answer(409, type, description);
export const ApiPaymentRequired = (description: string, type: Type<unknown> = InsufficientBalanceBodyDto) => answer(402, type, description);
export const ApiTooManyRequests = (description: string) => answer(429, RetryAfterBodyDto, description, { headers: RETRY_AFTER_HEADER });
export const ApiUnavailable = (description: string) => answer(503, ErrorBodyDto, description, { headers: RETRY_AFTER_HEADER });

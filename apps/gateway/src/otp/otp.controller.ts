import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiBadRequest, ApiForbidden, ApiNotFound, ApiPaymentRequired, ApiTooManyRequests, VerifyBadRequestBodyDto } from '../openapi/error-responses';
import { OtpSentResponseDto, OtpVerifiedResponseDto } from './otp-response.dto';
import { OtpResendDto, OtpSendDto, OtpVerifyDto } from './otp.dto';
import { OtpService } from './otp.service';
import { IdempotentSend, PendingAnswerRecorder, type RecordPendingAnswer } from '../idempotency/idempotent-send.decorator';

@ApiTags('otp')
@Controller('otp')
export class OtpController {
  constructor(private readonly otp: OtpService) {}

  @Post('send')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a one-time password',
    description:
      'Answers flat (2.1): `verification_id`, `recipient`, `channel`, `expires_at`, plus `cost` and `balance`. The code is generated with a cryptographic random source unless `otp_code` is given, and stored only as a keyed hash. Limits: 20 sends per rolling minute per company (an operator may set another), answered 429 with `retry_after` and `Retry-After`; a recipient with 3 wrong codes within 30 minutes is refused (429) until 30 minutes after the third. Fraud guard, per application, before anything is charged: destinations outside `allowed_countries` are refused with 403, and more than `otp_prefix_limit_per_hour` sends (default 100) to one number prefix (the number without its last four digits) with 429; each refusal shows in /otp/logs as `refused`. `channel: "whatsapp"` sends the code with the WhatsApp Cloud API authentication template (the text Meta renders, the code as its parameter; `template` and `custom_vars` apply to SMS only), charged at the `whatsapp` price per message.',
  })
  @ApiOkResponse({ type: OtpSentResponseDto, description: 'Sent: the OTP verification (2.1), with `cost` and `balance`' })
  @ApiBadRequest(
    'A missing or invalid field, named in `error` (`appid is required`); `Invalid phone number format`; a bad `template` or `custom_vars`; a text over 1600 characters once rendered; no price for the number',
  )
  @ApiPaymentRequired('Insufficient balance: `{ error, balance, cost }`; nothing sent or charged')
  @ApiForbidden(
    "The destination's country is not allowed for this application; or `Recipient has opted out`: the number is on the company's suppression list for this sender or all its numbers (an SMS OTP; unless the company set `otp_ignores_opt_outs`), nothing sent or charged; or `from` is a number or sender id assigned to another company (`from is a number or sender id assigned to another company`), or, with `SENDER_IDS_REGISTERED_ONLY`, one not assigned to this company: nothing was sent or charged",
  )
  @ApiNotFound('`appid` is not an application of this company, or `template` not one of its templates')
  @ApiTooManyRequests('Rate limit, prefix limit, or recipient blocked: `{ error, retry_after }` and `Retry-After`')
  @IdempotentSend()
  send(@CurrentPrincipal() principal: Principal, @Body() body: OtpSendDto, @PendingAnswerRecorder() recordPendingAnswer?: RecordPendingAnswer) {
    return this.otp.send(principal.companyId, body, recordPendingAnswer);
  }

  @Post('resend')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send an OTP again with a new code',
    description:
      'By `verification_id`, or `appid` + `recipient` (the newest pending OTP of that number). Same `verification_id`, a new code (the old one stops working), the validity restarts; charged and rate-limited like a send; answers like POST /otp/send. Refused with 429 + `retry_after` within 30 s of the previous send or resend, with 400 after 5 resends or once the OTP is verified or failed after too many wrong codes, and with 429 while the recipient is blocked. An OTP that failed because its code never reached the handset (`failure_reason` `undelivered`, `rejected`, `expired`, `not_sent`) may be resent: it is pending again. A resend never resets the count of wrong codes. Like a send, an SMS OTP whose number opted out is refused with 403 unless the company set `otp_ignores_opt_outs`.',
  })
  @ApiOkResponse({ type: OtpSentResponseDto, description: 'Resent: the OTP verification (2.1), with `cost` and `balance`' })
  @ApiBadRequest(
    'A missing or invalid field, named in `error`; after 5 resends, or once the OTP is verified, expired, cancelled or failed after too many wrong codes',
  )
  @ApiPaymentRequired('Insufficient balance: `{ error, balance, cost }`; nothing sent or charged')
  @ApiForbidden(
    "`Recipient has opted out`: the OTP's number is now on the company's suppression list for its sender or all its numbers (an SMS OTP; unless the company set `otp_ignores_opt_outs`), checked as POST /otp/send does and before the rate limit, nothing sent or charged",
  )
  @ApiNotFound('No such OTP (or application) for this company')
  @ApiTooManyRequests('Too soon, rate limit, or recipient blocked: `{ error, retry_after }` and `Retry-After`')
  resend(@CurrentPrincipal() principal: Principal, @Body() body: OtpResendDto) {
    return this.otp.resend(principal.companyId, body);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify a code',
    description:
      'By `verification_id` + code, or `appid` + `recipient` + code (the newest pending OTP of that number). Success: `{ status, message, verification_id, recipient, verified: true, verified_at }`. An OTP verifies once.',
  })
  @ApiOkResponse({ type: OtpVerifiedResponseDto, description: 'Verified' })
  @ApiBadRequest(
    '`Invalid OTP code` with `attempts_remaining`; `OTP expired`; `OTP already verified`; a failed OTP: `OTP delivery failed; resend it or send a new one` or `OTP failed after too many wrong codes; send a new one`, with `failure_reason` and `error_code`; or a field error',
    VerifyBadRequestBodyDto,
  )
  @ApiNotFound('No such OTP (or application) for this company')
  @ApiTooManyRequests('Blocked after 3 wrong codes within 30 minutes: `{ error, retry_after }` and `Retry-After`')
  verify(@CurrentPrincipal() principal: Principal, @Body() body: OtpVerifyDto) {
    return this.otp.verify(principal.companyId, body);
  }
}

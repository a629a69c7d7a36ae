import { IdempotentSend, PendingAnswerRecorder, type RecordPendingAnswer } from '../idempotency/idempotent-send.decorator';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import {
  ApiBadRequest,
  ApiConflict,
  ApiNotFound,
  ApiPaymentRequired,
  BulkBadRequestBodyDto,
  BulkInsufficientBalanceBodyDto,
  ErrorBodyDto,
  NoValidNumberErrorBodyDto,
  NotCancellableBodyDto,
} from '../openapi/error-responses';
import { ApiCampaignAccepted } from './campaign-response.dto';
import { SmsBulkDto } from './sms-bulk.dto';
import { SmsBulkService } from './sms-bulk.service';
import { SmsEstimateService } from './sms-estimate.service';
import { ApiSmsSent, MessageCancelledResponseDto, MessageResponseDto, SmsEstimateResponseDto } from './sms-response.dto';
import { SmsSendDto } from './sms-send.dto';
import { SmsService } from './sms.service';

@ApiTags('sms')
@Controller('sms')
export class SmsController {
  constructor(
    private readonly sms: SmsService,
    private readonly estimates: SmsEstimateService,
    private readonly bulk: SmsBulkService,
  ) {}

  @Post('send')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send an SMS to one or several recipients',
    description:
      'One recipient answers `data` as a message (status `sent`, or `scheduled` with `scheduled_time`); several (comma/semicolon separated, at most 1000, duplicates sent once, a missing `+` accepted when adding it makes the number valid) answer totals and one entry per recipient; invalid ones are listed with `status: "failed"`, `cost: 0`. The whole send is charged in one debit before anything is queued. Send `Idempotency-Key` to make retries safe.',
  })
  @ApiSmsSent()
  @ApiBadRequest(
    'A missing or invalid field, named in `error`; `Invalid phone number format` when no number is valid (with `failed_numbers` when several were given); over 1000 recipients; a text over 1600 characters; a `webhook_url` that is not http(s) or is a literal address in a forbidden range',
    NoValidNumberErrorBodyDto,
  )
  @ApiPaymentRequired('Insufficient balance: `{ error, balance, cost }`; nothing was sent or charged')
  @ApiResponse({
    status: 403,
    description:
      "`Recipient has opted out`: every valid recipient is on the company's suppression list for this `from` (or for all its numbers; see /sms/opt-outs), with `failed_numbers` when several were given; nothing was sent or charged. Of several recipients, those who opted out are listed as failed with that error, uncharged, and the others sent; or `from` is a number or sender id assigned to another company (`from is a number or sender id assigned to another company`), or, with `SENDER_IDS_REGISTERED_ONLY`, one not assigned to this company: nothing was sent or charged",
    type: BulkBadRequestBodyDto,
  })
  @IdempotentSend()
  send(@CurrentPrincipal() principal: Principal, @Body() body: SmsSendDto, @PendingAnswerRecorder() recordPendingAnswer?: RecordPendingAnswer) {
    return this.sms.send(principal.companyId, body, recordPendingAnswer);
  }

  @Post('send-bulk')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a campaign: one text to many recipients, or many individual messages',
    description:
      'Mode 1: `recipients` (array, or one string separated by commas and/or semicolons) + `message`; mode 2: `messages: [{ to, message, reference?, from? }]`; both: 400. At most 1,000,000 entries, 64 MiB of JSON. Invalid numbers are listed in `failed_numbers` (`number` as given, trimmed) and not charged; duplicates are sent once. The whole campaign is charged in one debit, all or nothing (402 with `balance`, `required`, `recipients`). Answer: shape A (totals, `batches` a count, `summary`) when every batch is released at once; shape B (`batches` with `batch_id`, `recipients`, `status`, `scheduled_time`) when `delay_between_batches` > 0 or `scheduled_time` is given; both carry the totals and `failed_numbers`. `priority: high` batches go before waiting `normal` ones. Campaign parts yield to OTPs and single sends: while those flow, each dispatcher submits at most `CAMPAIGN_PACE_WHILE_OTHERS_FLOW` (300) campaign parts a second; otherwise campaigns go at full speed, after a first second at that pace when they start after a quiet spell.',
  })
  @ApiBody({ type: SmsBulkDto })
  @ApiCampaignAccepted()
  @ApiBadRequest(
    'A missing or invalid field, named in `error` (both modes, or neither; an unknown field); a `webhook_url` that is not http(s) or is a literal address in a forbidden range; no entry that can be sent (with `failed_numbers`)',
    BulkBadRequestBodyDto,
  )
  @ApiPaymentRequired(
    'Insufficient balance for the whole campaign: `{ error, balance, required, recipients }`; nothing stored, queued or charged',
    BulkInsufficientBalanceBodyDto,
  )
  @ApiResponse({
    status: 403,
    description:
      'The campaign’s `from`, or a message’s, is a number or sender id assigned to another company, or, with `SENDER_IDS_REGISTERED_ONLY`, one not assigned to this company: nothing stored or charged',
    type: ErrorBodyDto,
  })
  @ApiResponse({ status: 413, description: 'Body over 64 MiB, however it is framed', type: ErrorBodyDto })
  sendBulk(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    // Read from the parsed JSON as it is: the validation pipe would walk a million entries.
    return this.bulk.send(principal.companyId, request.body);
  }

  @Post('estimate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Parts, encoding and cost of a send, without sending or charging',
    description:
      "Same body as POST /sms/send. `first_non_gsm_character` names the character that forced UCS-2 (70/67 characters per part). The company's suppression list (see /sms/opt-outs) applies as it would to the send: a recipient who opted out of this `from` (or of all the company's numbers) is listed in `failed_numbers` with `Recipient has opted out`, is not in `recipients` and costs nothing in `total_cost`; when every valid recipient opted out, the estimate is refused with 403, as the send would be.",
  })
  @ApiOkResponse({ type: SmsEstimateResponseDto, description: 'What a send would do' })
  @ApiBadRequest('A missing or invalid field, named in `error`; no valid number; over 1000 recipients; a text over 1600 characters; no price for a number')
  @ApiResponse({
    status: 403,
    description:
      "`Recipient has opted out`: every valid recipient is on the company's suppression list for this `from` (or for all its numbers), with `failed_numbers` when several were given; or a `from` assigned to another company (or not registered, with SENDER_IDS_REGISTERED_ONLY). As POST /sms/send would answer",
    type: BulkBadRequestBodyDto,
  })
  estimate(@CurrentPrincipal() principal: Principal, @Body() body: SmsSendDto) {
    return this.estimates.estimate(principal.companyId, body);
  }

  @Get(':message_id')
  @ApiOperation({ summary: 'A message with its current state, parts and timestamps' })
  @ApiParam({ name: 'message_id', description: 'The id POST /sms/send answered' })
  @ApiOkResponse({ type: MessageResponseDto, description: 'The message' })
  @ApiNotFound('No such message for this company (also for an id that is not a uuid)')
  find(@CurrentPrincipal() principal: Principal, @Param('message_id') messageId: string) {
    return this.sms.find(principal.companyId, messageId);
  }

  @Delete(':message_id')
  @ApiOperation({ summary: 'Cancel a scheduled message and refund it' })
  @ApiParam({ name: 'message_id', description: 'The id POST /sms/send answered' })
  @ApiOkResponse({ type: MessageCancelledResponseDto, description: 'Cancelled and refunded' })
  @ApiNotFound('No such message for this company')
  @ApiConflict('The message is no longer scheduled: `{ error, status }` with its status', NotCancellableBodyDto)
  cancel(@CurrentPrincipal() principal: Principal, @Param('message_id') messageId: string) {
    return this.sms.cancel(principal.companyId, messageId);
  }
}

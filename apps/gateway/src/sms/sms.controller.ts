import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiStandardErrors, ApiValidationErrors, ErrorBodyDto } from '../openapi/error-responses';
import { SmsEstimateService } from './sms-estimate.service';
import { SmsSendDto } from './sms-send.dto';
import { SmsService } from './sms.service';

@ApiTags('sms')
@ApiStandardErrors()
@Controller('sms')
export class SmsController {
  constructor(
    private readonly sms: SmsService,
    private readonly estimates: SmsEstimateService,
  ) {}

  @Post('send')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send an SMS to one or several recipients',
    description:
      'One recipient answers `data` as a message (status `sent`, or `scheduled` with `scheduled_time`); several (comma/semicolon separated, at most 1000, duplicates sent once, a missing `+` accepted when adding it makes the number valid) answer totals and one entry per recipient; invalid ones are listed with `status: "failed"`, `cost: 0`. The whole send is charged in one debit before anything is queued. Send `Idempotency-Key` to make retries safe.',
  })
  @ApiOkResponse({ description: 'Accepted for delivery (shape 2.2 for one recipient, 2.3 for several)' })
  @ApiValidationErrors()
  @ApiResponse({ status: 402, description: 'Insufficient balance: `{ error, balance, cost }`; nothing was sent or charged', type: ErrorBodyDto })
  send(@CurrentPrincipal() principal: Principal, @Body() body: SmsSendDto) {
    return this.sms.send(principal.companyId, body);
  }

  @Post('estimate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Parts, encoding and cost of a send, without sending or charging', description: 'Same body as POST /sms/send. `first_non_gsm_character` names the character that forced UCS-2 (70/67 characters per part).' })
  @ApiValidationErrors()
  estimate(@Body() body: SmsSendDto) {
    return this.estimates.estimate(body);
  }

  @Get(':message_id')
  @ApiOperation({ summary: 'A message with its current state, parts and timestamps' })
  @ApiParam({ name: 'message_id' })
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such message for this company' })
  find(@CurrentPrincipal() principal: Principal, @Param('message_id') messageId: string) {
    return this.sms.find(principal.companyId, messageId);
  }

  @Delete(':message_id')
  @ApiOperation({ summary: 'Cancel a scheduled message and refund it' })
  @ApiParam({ name: 'message_id' })
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such message for this company' })
  @ApiResponse({ status: 409, type: ErrorBodyDto, description: 'The message is no longer scheduled' })
  cancel(@CurrentPrincipal() principal: Principal, @Param('message_id') messageId: string) {
    return this.sms.cancel(principal.companyId, messageId);
  }
}

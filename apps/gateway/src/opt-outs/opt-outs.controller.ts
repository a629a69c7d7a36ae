import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { OPT_OUT_SOURCES } from '@mp/messaging';
import type { FastifyRequest } from 'fastify';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiBadRequest, ApiNotFound, BulkBadRequestBodyDto, ErrorBodyDto } from '../openapi/error-responses';
import { OPT_OUT_LIST_DEFAULT_LIMIT, OPT_OUT_LIST_MAX_LIMIT } from './opt-outs-request';
import { OptOutImportDto, OptOutListResponseDto, OptOutRemovedResponseDto, OptOutsAddedResponseDto } from './opt-outs.dto';
import { OptOutsService } from './opt-outs.service';

const SUPPRESSION_RULE =
  'A number on the list gets nothing from the number it opted out of (or from any number of the company, for an entry whose `number` is null): POST /sms/send answers 403 `Recipient has opted out` and charges nothing; several recipients or a campaign list it as failed with that error, uncharged; POST /otp/send is refused the same way unless the company set `otp_ignores_opt_outs`.';
const text = (name: string, description: string) => ApiQuery({ name, required: false, description, schema: { type: 'string' } });

@ApiTags('sms')
@Controller('sms/opt-outs')
export class OptOutsController {
  constructor(private readonly optOuts: OptOutsService) {}

  @Get()
  @ApiOperation({
    summary: "List the company's opt-outs (its suppression list)",
    description: `Newest entries first, a page at a time: pass \`next_cursor\` as \`cursor\` with the same filters for the next. ${SUPPRESSION_RULE}`,
  })
  @text('phone', 'The contact, in E.164')
  @text('number', 'The company number, exact')
  @ApiQuery({ name: 'source', required: false, enum: [...OPT_OUT_SOURCES] })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: OPT_OUT_LIST_MAX_LIMIT, default: OPT_OUT_LIST_DEFAULT_LIMIT } })
  @text('cursor', 'The `next_cursor` of the previous page')
  @ApiOkResponse({ type: OptOutListResponseDto, description: 'A page of opt-outs' })
  @ApiBadRequest('A bad filter, limit or cursor, named in `error`', ErrorBodyDto)
  list(@CurrentPrincipal() principal: Principal, @Query() query: unknown) {
    return this.optOuts.list(principal.companyId, query);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add opt-outs: one, or an import of up to 10,000',
    description: `One entry as the body, or \`{ opt_outs: [entries] }\`; each entry with the \`source\` and \`created_at\` it came with. An entry already listed (same phone and number) is kept as it was; a bad entry is listed in \`failed_numbers\` and the others added. ${SUPPRESSION_RULE}`,
  })
  @ApiBody({ type: OptOutImportDto })
  @ApiOkResponse({ type: OptOutsAddedResponseDto, description: 'What was added' })
  @ApiBadRequest('A malformed body, over 10,000 entries, or no entry that can be added (with `failed_numbers`)', BulkBadRequestBodyDto)
  @ApiResponse({ status: 413, description: 'Body over 4 MiB', type: ErrorBodyDto })
  add(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    // Read as parsed: the validation pipe would walk 10,000 entries; parseOptOutImport checks each.
    return this.optOuts.add(principal.companyId, request.body);
  }

  @Delete(':phone')
  @ApiOperation({
    summary: 'Lift an opt-out',
    description: 'Without `number`, every entry of the phone (for each number and for all of them) is removed; with `number`, only the entry for that number.',
  })
  @ApiParam({ name: 'phone', description: 'The contact, in E.164 (`%2B447911123456`; a missing `+` is accepted)' })
  @text('number', 'Only the entry for this company number')
  @ApiOkResponse({ type: OptOutRemovedResponseDto, description: 'Removed' })
  @ApiBadRequest('A phone that is not a number, or a bad `number`', ErrorBodyDto)
  @ApiNotFound('The phone has no such entry on this company’s list')
  remove(@CurrentPrincipal() principal: Principal, @Param('phone') phone: string, @Query() query: unknown) {
    return this.optOuts.remove(principal.companyId, phone, query);
  }
}

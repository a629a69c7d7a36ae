import { Body, Get, Header, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CatalogService, PriceTable, type LiveSession } from '@mp/accounts';
import { moneyToJson, type PriceRule } from '@mp/billing-domain';
import { ApiBadRequest } from '../../openapi/error-responses';
import { refusalsAnswered } from '../dashboard-answers';
import { CurrentSession, DashboardController, Needs } from '../dashboard-session.guard';
import { ImportedPricesDto, ImportPricesRequestDto, PriceDto, PriceListDto, SetPriceRequestDto } from './operator.dto';

const priceAnswer = (rule: PriceRule): PriceDto => ({ prefix: rule.prefix, route: rule.route, price: moneyToJson(rule.price) });

/**
 * The price table (operators only): what a part costs per destination prefix and route. The
 * gateway reads it at most every 5 s, so a change charges from then on. Every change is in the
 * platform's audit log, naming the operator.
 */
@DashboardController('operator')
export class OperatorPricesController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly table: PriceTable,
  ) {}

  @Get('prices')
  @Needs('operator.prices')
  @ApiOperation({ summary: 'The price table, by prefix and route (operators only)' })
  @ApiOkResponse({ type: PriceListDto, description: 'The prices' })
  async list(): Promise<PriceListDto> {
    return { items: (await this.table.list()).map(priceAnswer) };
  }

  @Put('prices')
  @Needs('operator.prices')
  @ApiOperation({ summary: 'Set the price of a prefix and route, adding it or replacing the earlier one (operators only); as `admin price:set`' })
  @ApiOkResponse({ type: PriceDto, description: 'The price set' })
  @ApiBadRequest('A missing or invalid prefix, route or price, named in `error`')
  async set(@CurrentSession() session: LiveSession, @Body() body: SetPriceRequestDto): Promise<PriceDto> {
    const set = await refusalsAnswered(() => this.catalog.setPrice(body, session.user.id));
    return { prefix: set.prefix, route: set.route, price: set.price };
  }

  @Get('prices.csv')
  @Needs('operator.prices')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="prices.csv"')
  @ApiOperation({ summary: 'The price table as a CSV download: prefix,route,price, prices with 4 decimals (operators only)' })
  @ApiOkResponse({
    description: 'RFC 4180 CSV (CRLF): the header prefix,route,price, then one price a line; POST /dashboard/api/operator/prices/import reads it back',
    content: { 'text/csv': { schema: { type: 'string' } } },
    headers: { 'Content-Disposition': { description: 'attachment; filename="prices.csv"', schema: { type: 'string' } } },
  })
  async csv(): Promise<string> {
    return this.table.exportCsv();
  }

  @Post('prices/import')
  @HttpCode(200)
  @Needs('operator.prices')
  @ApiOperation({
    summary: 'Set many prices from a CSV, all or none (operators only)',
    description:
      'Every row is checked before any price changes; the first bad one refuses the whole file with 400 naming its line, e.g. `{ "error": "line 4: route must be one of auto, standard, premium, whatsapp" }`. A prefix and route given twice is refused. Prices the file leaves out are kept. A prefix saved by a spreadsheet without its + (44) is read as +44.',
  })
  @ApiOkResponse({ type: ImportedPricesDto, description: 'All the prices set' })
  @ApiBadRequest('A missing csv field, or a file with a bad header or row (its line named in `error`): nothing was changed')
  async import(@CurrentSession() session: LiveSession, @Body() body: ImportPricesRequestDto): Promise<ImportedPricesDto> {
    return refusalsAnswered(() => this.table.importCsv(body.csv, session.user.id));
  }
}

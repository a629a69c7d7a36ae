import { Controller, Get, Header, Logger } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '@mp/http-kit';
import { Registry } from 'prom-client';
import { PlatformMetrics } from './platform-metrics';

/** The route of the scrape, left out of the HTTP metrics it serves. */
export const METRICS_ROUTE = '/metrics';

@ApiTags('metrics')
@Public()
@Controller('metrics')
export class MetricsController {
  private readonly logger = new Logger('MetricsController');

  constructor(private readonly metrics: PlatformMetrics) {}

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Prometheus metrics of this process (text format 0.0.4); docs/metrics.md lists them' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'The metrics (`text/plain; version=0.0.4`)', schema: { type: 'string' } })
  async scrape(): Promise<string> {
    const { text, failures } = await this.metrics.scrape();
    // A failed reading (Redis or PostgreSQL down) leaves its gauges at their last value; the rest is still worth scraping.
    for (const { name, error } of failures) this.logger.warn({ msg: 'metrics reading failed', reading: name, err: error });
    return text;
  }
}

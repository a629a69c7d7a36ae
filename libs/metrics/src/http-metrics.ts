import type { FastifyInstance } from 'fastify';
import type { Counter, Histogram } from 'prom-client';
import type { PlatformMetrics } from './platform-metrics';

type Labels = 'method' | 'route' | 'status';
interface Series {
  requests: Counter.Internal;
  duration: Histogram.Internal<Labels>;
}

/** The route label of a request no route matched (a 404 of the router): never the raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';
/** Methods kept as they are; any other (a client may send any token) counts as `other`. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts requests by method, declared route pattern and status, and times them. The series of a
 * (route, method, status) is looked up once and kept: a request then costs two map lookups, an
 * increment and a histogram observation. Routes are the app's own patterns and methods the
 * standard verbs, so the number of series is bounded.
 */
export class HttpMetrics {
  private readonly requests: Counter<Labels>;
  private readonly duration: Histogram<Labels>;
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(
    metrics: PlatformMetrics,
    private readonly excludedRoutes: ReadonlySet<string> = new Set(),
  ) {
    this.requests = metrics.counter('mp_http_requests_total');
    this.duration = metrics.histogram('mp_http_request_duration_seconds');
  }

  install(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      this.record(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }

  record(method: string, route: string | undefined, status: number, seconds: number): void {
    const pattern = route ?? UNMATCHED_ROUTE;
    if (this.excludedRoutes.has(pattern)) return;
    const series = this.seriesOf(pattern, KNOWN_METHODS.has(method) ? method : 'other', status);
    series.requests.inc();
    series.duration.observe(seconds);
  }

  private seriesOf(route: string, method: string, status: number): Series {
    let byMethod = this.series.get(route);
    if (!byMethod) this.series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { requests: this.requests.labels(labels), duration: this.duration.labels(labels) };
      byStatus.set(status, series);
    }
    return series;
  }
}

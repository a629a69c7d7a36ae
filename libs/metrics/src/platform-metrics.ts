import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { METRIC_DEFINITIONS, type CounterName, type GaugeName, type HistogramName, type LabelOf, type MetricName } from './metric-definitions';

type Refresh = () => void | Promise<void>;

/**
 * The process's one registry (every series labelled with the app) and the platform's metrics in
 * it. A metric is registered the first time code asks for it, so an app exports only those it
 * counts (a gauge nobody sets would read 0, which is a claim). Services take their metrics once,
 * at construction, and count in memory; gauges read from elsewhere are set by refreshers run
 * before each scrape.
 */
export class PlatformMetrics {
  readonly registry = new Registry();
  private readonly metrics = new Map<MetricName, Counter<string> | Gauge<string> | Histogram<string>>();
  private readonly refreshers: { name: string; refresh: Refresh }[] = [];

  constructor(app: string, options: { defaultMetrics?: boolean } = {}) {
    this.registry.setDefaultLabels({ app });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  counter<N extends CounterName>(name: N): Counter<LabelOf<N>> {
    return this.metric(name, (config) => new Counter(config)) as Counter<LabelOf<N>>;
  }

  gauge<N extends GaugeName>(name: N): Gauge<LabelOf<N>> {
    return this.metric(name, (config) => new Gauge(config)) as Gauge<LabelOf<N>>;
  }

  histogram<N extends HistogramName>(name: N): Histogram<LabelOf<N>> {
    const { buckets } = METRIC_DEFINITIONS[name];
    return this.metric(name, (config) => new Histogram({ ...config, buckets: [...buckets] })) as Histogram<LabelOf<N>>;
  }

  /** Runs before every scrape (in parallel with the others); one that fails leaves its gauges as they were. */
  refreshOnScrape(name: string, refresh: Refresh): void {
    this.refreshers.push({ name, refresh });
  }

  /** Runs the refreshers, then renders the registry; answers the names of refreshers that failed, with their error. */
  async scrape(): Promise<{ text: string; failures: { name: string; error: unknown }[] }> {
    const failures: { name: string; error: unknown }[] = [];
    await Promise.all(
      this.refreshers.map(async ({ name, refresh }) => {
        try {
          await refresh();
        } catch (error) {
          failures.push({ name, error });
        }
      }),
    );
    return { text: await this.registry.metrics(), failures };
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private metric<M extends Counter<string> | Gauge<string> | Histogram<string>>(
    name: MetricName,
    create: (config: { name: string; help: string; labelNames: string[]; registers: Registry[] }) => M,
  ): M {
    let metric = this.metrics.get(name);
    if (!metric) {
      const { help, labels } = METRIC_DEFINITIONS[name];
      metric = create({ name, help, labelNames: [...labels], registers: [this.registry] });
      this.metrics.set(name, metric);
    }
    return metric as M;
  }
}

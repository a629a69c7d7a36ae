import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Counter, Gauge, Histogram } from 'prom-client';
import { METRIC_DEFINITIONS, type MetricName } from './metric-definitions';
import { PlatformMetrics } from './platform-metrics';

interface Documented {
  type: string;
  labels: string[];
}

/** The rows of docs/metrics.md's table: | `name` | type | label, label | meaning |. */
function documentedMetrics(): Map<string, Documented> {
  const text = readFileSync(join(__dirname, '../../../docs/metrics.md'), 'utf8');
  const rows = new Map<string, Documented>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`(mp_[a-z_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!name) continue;
    const labels = cells[3] === '' ? [] : cells[3].split(',').map((label) => label.trim());
    rows.set(name, { type: cells[2], labels });
  }
  return rows;
}

/** Registers every metric the code defines, as the apps do, and reads back what the registry holds. */
function registeredMetrics(): Map<string, Documented> {
  const metrics = new PlatformMetrics('test', { defaultMetrics: false });
  for (const [name, definition] of Object.entries(METRIC_DEFINITIONS) as [MetricName, (typeof METRIC_DEFINITIONS)[MetricName]][]) {
    if (definition.type === 'counter') metrics.counter(name as never);
    else if (definition.type === 'gauge') metrics.gauge(name as never);
    else metrics.histogram(name as never);
  }
  const typeOf = (metric: unknown) =>
    metric instanceof Counter ? 'counter' : metric instanceof Gauge ? 'gauge' : metric instanceof Histogram ? 'histogram' : 'other';
  return new Map(
    metrics.registry
      .getMetricsAsArray()
      .map((metric) => [metric.name, { type: typeOf(metric), labels: [...(metric as unknown as { labelNames: string[] }).labelNames] }]),
  );
}

describe('docs/metrics.md and the metrics in code', () => {
  const documented = documentedMetrics();
  const registered = registeredMetrics();

  it('finds the table', () => {
    expect(documented.size).toBeGreaterThanOrEqual(20);
  });

  it('documents every metric the code registers, with its type and labels', () => {
    for (const [name, metric] of registered) expect({ name, ...documented.get(name) }).toEqual({ name, ...metric });
  });

  it('registers every documented metric', () => {
    expect([...documented.keys()].filter((name) => !registered.has(name))).toEqual([]);
  });
});

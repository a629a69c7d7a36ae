// Reads docs/metrics.md's table of series, and the metric selectors of PromQL expressions (alert
// and recording rules, dashboard queries, KEDA triggers), so tests can check one against the other.
import { join } from 'node:path';
import { read, ROOT } from './platform-facts';

export interface DocumentedMetric {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  labels: string[];
  meaning: string;
}

/** The rows of the series table in docs/metrics.md (`| \`name\` | type | labels | meaning |`). */
export function documentedMetrics(): Map<string, DocumentedMetric> {
  const rows = read(join(ROOT, 'docs', 'metrics.md'))
    .split('\n')
    .map((line) => /^\|\s*`([a-z_:][a-z0-9_:]*)`\s*\|\s*(\w+)\s*\|([^|]*)\|(.*)\|\s*$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null);
  return new Map(
    rows.map(([, name, type, labels, meaning]) => [
      name,
      {
        name,
        type: type as DocumentedMetric['type'],
        labels: labels
          .split(',')
          .map((label) => label.trim())
          .filter(Boolean),
        meaning,
      },
    ]),
  );
}

/** A histogram's series end in _bucket, _sum or _count; `le` is the bucket's label. */
const HISTOGRAM_SERIES = /^(.*)_(bucket|sum|count)$/;

/** The documented metric a series name belongs to, if any. */
export function metricOf(series: string, documented: Map<string, DocumentedMetric>): DocumentedMetric | undefined {
  const direct = documented.get(series);
  if (direct) return direct;
  const [, base] = HISTOGRAM_SERIES.exec(series) ?? [];
  const histogram = base === undefined ? undefined : documented.get(base);
  return histogram?.type === 'histogram' ? histogram : undefined;
}

/** The labels a series can be selected or grouped by: its documented ones, `app`, and `le` on buckets. */
export function labelsOf(series: string, metric: DocumentedMetric): string[] {
  return [...metric.labels, 'app', ...(series.endsWith('_bucket') ? ['le'] : [])];
}

export interface Matcher {
  label: string;
  operator: '=' | '!=' | '=~' | '!~';
  value: string;
}

export interface Selector {
  series: string;
  matchers: Matcher[];
}

/** Names of the platform's series (mp_...) and recording rules (mp:...) an expression uses. */
export function seriesNames(expression: string): string[] {
  return [...new Set([...expression.matchAll(/(?<![\w:"])(mp[_:][a-zA-Z0-9_:]*)/g)].map(([, name]) => name))];
}

/** Every `name{...}` selector of an expression, with its label matchers. */
export function selectors(expression: string): Selector[] {
  return [...expression.matchAll(/(?<![\w:])([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}/g)].map(([, series, body]) => ({
    series,
    matchers: [...body.matchAll(/(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)].map(([, label, operator, value]) => ({
      label,
      operator: operator as Matcher['operator'],
      value,
    })),
  }));
}

/** The labels of every `by (...)` / `without (...)` grouping of an expression. */
export function groupingLabels(expression: string): string[] {
  return [...expression.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap(([, list]) =>
    list
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean),
  );
}

/** The literal values a matcher accepts: its value, or each alternative of a simple regex. */
export function matchedValues(matcher: Matcher): string[] {
  if (matcher.value.startsWith('$')) return []; // a Grafana variable, chosen from label_values()
  if (matcher.operator === '=~' || matcher.operator === '!~') {
    return /^[\w.-]+(\|[\w.-]+)*$/.test(matcher.value) ? matcher.value.split('|') : [];
  }
  return [matcher.value];
}

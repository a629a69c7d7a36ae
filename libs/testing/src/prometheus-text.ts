/** One sample of a Prometheus text exposition: `name{label="value",...} 12.5`. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PrometheusScrape {
  samples: PrometheusSample[];
  /** `# TYPE` of each metric family. */
  types: Map<string, string>;
}

// Values as Go's ParseFloat reads them (Prometheus does): NaN and Inf in any case; prom-client writes `Nan`.
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.eE+-]+|nan|[+-]?inf)(?: -?\d+)?$/i;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;
const TYPE = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/;

/**
 * Parses the text format (0.0.4) strictly enough for a test: every line a comment (HELP, TYPE) or
 * a sample with well-formed labels; throws naming the first line that is neither.
 */
export function parsePrometheusText(text: string): PrometheusScrape {
  const samples: PrometheusSample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const type = TYPE.exec(line);
      if (type) types.set(type[1], type[2]);
      else if (!line.startsWith('# HELP ')) throw new Error(`not a HELP or TYPE line: ${line}`);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    samples.push({ name: match[1], labels: parseLabels(match[2] ?? '', line), value: valueOf(match[3]) });
  }
  return { samples, types };
}

function valueOf(text: string): number {
  if (/^nan$/i.test(text)) return NaN;
  if (/^[+-]?inf$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let consumed = 0;
  for (let match = LABEL.exec(text); match; match = LABEL.exec(text)) {
    labels[match[1]] = match[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    consumed = LABEL.lastIndex;
  }
  if (consumed !== text.length) throw new Error(`bad labels: ${line}`);
  return labels;
}

/** The sum of the samples of this name whose labels include `labels` (0 when none). */
export function sampleSum(scrape: PrometheusScrape, name: string, labels: Record<string, string> = {}): number {
  return scrape.samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

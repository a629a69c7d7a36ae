// Checks k8s/monitoring (alert and recording rules, the Grafana dashboard, the PodMonitor) and the
// workers' KEDA triggers against docs/metrics.md, libs/queue-contracts and the apps' pods.
import { QueueName } from '@mp/queue-contracts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { alerts, baseObjects, dashboard, dashboardQueries, kedaQueries, MONITORING, recorded, rules, rulesFile, type RuleFile } from './monitoring-files';
import { APPS, read, ROOT, yamlDocuments } from './platform-facts';
import { documentedMetrics, groupingLabels, labelsOf, matchedValues, metricOf, selectors, seriesNames } from './promql';

interface PodMonitorSpec {
  selector: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values: string[] }[] };
  podMetricsEndpoints: { port: string; path: string; honorLabels?: boolean }[];
}

interface AppDeployment {
  spec: {
    template: {
      metadata: { labels: Record<string, string> };
      spec: { containers: { args?: string[]; ports?: { name?: string; containerPort: number }[] }[] };
    };
  };
}

/** Labels Prometheus adds to every scraped series (PodMonitor or annotation discovery). */
const TARGET_LABELS = ['namespace', 'pod', 'instance', 'job', 'container'];
/** Labels whose values are open-ended (patterns, names from configuration), not listed in docs/metrics.md. */
const OPEN_LABELS = ['route', 'method', 'status', 'smsc', 'bind', 'job', 'le'];
const SEVERITIES = ['critical', 'warning', 'info'];

/** Every PromQL expression the deployment files hold, named by where it is. */
function everyExpression(): [string, string][] {
  return [
    ...rules.map((rule): [string, string] => [`rule ${rule.record ?? rule.alert}`, rule.expr]),
    ...dashboardQueries().map((expr): [string, string] => ['dashboard', expr]),
    ...kedaQueries().map((expr): [string, string] => ['KEDA trigger', expr]),
  ];
}

/** The labels grouping may use in an expression: those of the series and recording rules it reads. */
function labelsAvailable(expression: string): string[] {
  const documented = documentedMetrics();
  return [
    ...TARGET_LABELS,
    ...seriesNames(expression).flatMap((name) => {
      const metric = metricOf(name, documented);
      if (metric) return labelsOf(name, metric);
      return groupingLabels(recorded.get(name) ?? '');
    }),
  ];
}

describe('docs/metrics.md (what the monitoring files are checked against)', () => {
  it('documents the series the rules, dashboard and scalers rely on', () => {
    const documented = documentedMetrics();
    expect(documented.get('mp_queue_backlog')?.labels).toEqual(['queue']);
    expect(documented.get('mp_ledger_balance_mismatches')?.type).toBe('gauge');
  });
});

describe('k8s/monitoring rules', () => {
  it('are one rules file, and a PrometheusRule with the very same groups', () => {
    const [prometheusRule] = yamlDocuments(join(MONITORING, 'prometheus-rule.yaml')) as { apiVersion: string; kind: string; spec: RuleFile }[];
    expect(prometheusRule.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(prometheusRule.kind).toBe('PrometheusRule');
    expect(prometheusRule.spec).toEqual(rulesFile);
    expect(rules.length).toBeGreaterThan(0);
  });

  it('each record or alert, named once, with an expression', () => {
    for (const rule of rules) {
      expect({ rule, named: (rule.record === undefined) !== (rule.alert === undefined) }).toEqual({ rule, named: true });
      expect(rule.expr.trim()).not.toBe('');
    }
    const names = rules.map((rule) => rule.record ?? rule.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const name of recorded.keys()) expect(name).toMatch(/^mp:[a-z0-9_]+:[a-z0-9_:]+$/);
  });

  it('alert on the backlog, unbound SMSCs, webhook failures, OTP conversion and the ledger', () => {
    const byName = new Map(alerts.map((rule) => [rule.alert, rule]));
    const expression = (name: string): string => {
      const rule = byName.get(name);
      if (!rule) throw new Error(`no alert ${name}`);
      // Recording rules expanded one level: what the alert finally reads.
      return rule.expr.replace(/mp:[\w:]+/g, (record) => `(${recorded.get(record) ?? record})`);
    };
    expect(expression('MessagingQueueBacklogGrowing')).toContain('mp_queue_backlog');
    expect(expression('MessagingSmscNotBound')).toMatch(/mp_smsc_binds_bound\)\s*==\s*0/);
    expect(expression('MessagingCarrierDegraded')).toMatch(/mp_carrier_degraded\)\s*==\s*1/);
    expect(expression('MessagingWebhookFailureRate')).toMatch(/mp_webhook_attempts_total\{outcome=~?"failed/);
    expect(expression('MessagingLedgerBalanceMismatch')).toMatch(/mp_ledger_balance_mismatches\)\s*>\s*0/);
    // Against its own recent level: the hourly ratio below a fraction of its earlier average.
    expect(byName.get('MessagingOtpConversionDropped')?.expr).toMatch(/mp:otp_conversion_ratio:rate1h < [0-9.]+ \* mp:otp_conversion_ratio:rate1h:\w+/);
    expect(recorded.get('mp:otp_conversion_ratio:rate1h:avg1d')).toMatch(/_over_time\(mp:otp_conversion_ratio:rate1h\[\w+\] offset \w+\)/);
  });

  it('record the OTP conversion ratio as docs/metrics.md defines it', () => {
    const squash = (text: string): string => text.replace(/\s+/g, '');
    const formula = recorded.get('mp:otp_conversion_ratio:rate1h') ?? '';
    expect(formula).not.toBe('');
    expect(squash(read(join(ROOT, 'docs', 'metrics.md')))).toContain(squash(formula));
  });

  it('each fire in a case of messaging.rules.test.yml (which promtool runs: prometheus-rules.spec.ts)', () => {
    const tests = yamlDocuments(join(MONITORING, 'messaging.rules.test.yml'))[0] as {
      rule_files: string[];
      tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    expect(tests.rule_files).toEqual(['messaging.rules.yml']);
    const firing = tests.tests.flatMap(({ alert_rule_test: cases = [] }) =>
      cases.filter(({ exp_alerts }) => exp_alerts.length > 0).map(({ alertname }) => alertname),
    );
    expect(alerts.map((rule) => rule.alert).filter((name) => !firing.includes(name as string))).toEqual([]);
  });

  it('give every alert a severity, a summary, and a section of k8s/monitoring/README.md', () => {
    const readme = read(join(MONITORING, 'README.md'));
    const sections = [...readme.matchAll(/^### (\w+)$/gm)].map(([, name]) => name);
    for (const rule of alerts) {
      const name = rule.alert as string;
      expect({ name, severity: SEVERITIES.includes(rule.labels?.severity ?? '') }).toEqual({ name, severity: true });
      expect(rule.annotations?.summary).toBeTruthy();
      expect(rule.annotations?.description).toContain(`k8s/monitoring/README.md#${name.toLowerCase()}`);
    }
    expect(sections.sort()).toEqual(alerts.map((rule) => rule.alert).sort());
  });
});

describe('PromQL of the rules, the dashboard and the KEDA triggers', () => {
  const expressions = everyExpression();

  it('is found in every place', () => {
    expect(expressions.filter(([where]) => where === 'dashboard').length).toBeGreaterThan(20);
    expect(expressions.filter(([where]) => where === 'KEDA trigger').length).toBe(Object.values(QueueName).length);
  });

  it('reads only series of docs/metrics.md and recording rules of messaging.rules.yml', () => {
    const documented = documentedMetrics();
    const unknown = expressions.flatMap(([where, expression]) =>
      seriesNames(expression)
        .filter((name) => metricOf(name, documented) === undefined && !recorded.has(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(unknown).toEqual([]);
    // Every selector is of a platform series: no name outside docs/metrics.md slips past the prefix.
    const foreign = expressions.flatMap(([where, expression]) =>
      selectors(expression)
        .filter(({ series }) => !/^mp[_:]/.test(series))
        .map(({ series }) => `${where}: ${series}`),
    );
    expect(foreign).toEqual([]);
  });

  it('selects by labels the series have, with values that exist', () => {
    const documented = documentedMetrics();
    const queues: string[] = Object.values(QueueName);
    const problems = expressions.flatMap(([where, expression]) =>
      selectors(expression).flatMap(({ series, matchers }) => {
        const metric = metricOf(series, documented);
        if (!metric) return [];
        return matchers.flatMap((matcher) => {
          const at = `${where}: ${series}{${matcher.label}${matcher.operator}"${matcher.value}"}`;
          if (!labelsOf(series, metric).includes(matcher.label) && !TARGET_LABELS.includes(matcher.label)) return [`${at}: no such label`];
          const wrong = matchedValues(matcher).filter((value) => {
            if (matcher.label === 'queue') return !queues.includes(value);
            if (matcher.label === 'app') return !(APPS as string[]).includes(value);
            if (OPEN_LABELS.includes(matcher.label) || TARGET_LABELS.includes(matcher.label)) return false;
            return !new RegExp(`[\`"]${value}[\`"]`).test(metric.meaning);
          });
          return wrong.map((value) => `${at}: no value ${value}`);
        });
      }),
    );
    expect(problems).toEqual([]);
  });

  it('groups by labels the series it reads have', () => {
    const problems = expressions.flatMap(([where, expression]) => {
      const available = labelsAvailable(expression);
      return groupingLabels(expression)
        .filter((label) => !available.includes(label))
        .map((label) => `${where}: by ${label} in ${expression}`);
    });
    expect(problems).toEqual([]);
  });
});

describe('k8s/monitoring/grafana-dashboard.json', () => {
  it('is a dashboard with unique panel ids, on the chosen Prometheus, within the 24-column grid', () => {
    expect(dashboard.uid).toBeTruthy();
    expect(dashboard.title).toBeTruthy();
    const ids = dashboard.panels.map(({ id }) => id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.templating.list.find(({ name }) => name === 'datasource')?.type).toBe('datasource');
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      expect({ panel: panel.title, datasource: panel.datasource }).toEqual({ panel: panel.title, datasource: { type: 'prometheus', uid: '${datasource}' } });
      expect(panel.targets?.length).toBeGreaterThan(0);
    }
  });

  it('shows requests, queues, jobs, SMSC binds, receipts, webhooks, OTP and billing', () => {
    const shown = new Set(dashboardQueries().flatMap(seriesNames));
    const expected = [
      'mp_http_requests_total',
      'mp_http_request_duration_seconds_bucket',
      'mp_queue_backlog',
      'mp_job_duration_seconds_bucket',
      'mp_job_failures_total',
      'mp_smsc_binds_bound',
      'mp_smsc_submits_total',
      'mp_smsc_window_in_use',
      'mp_receipt_latency_seconds_bucket',
      'mp_carrier_delivered_share',
      'mp_carrier_degraded',
      'mp_webhook_attempts_total',
      'mp_otp_sent_total',
      'mp_otp_verifications_total',
      'mp_billing_debits_total',
      'mp_billing_refunds_total',
      'mp_ledger_balance_mismatches',
    ];
    expect(expected.filter((name) => !shown.has(name))).toEqual([]);
  });
});

describe('k8s/monitoring kustomization and PodMonitor', () => {
  const kustomization = parse(read(join(MONITORING, 'kustomization.yaml'))) as {
    resources: string[];
    configMapGenerator: { name: string; files: string[]; options?: { labels?: Record<string, string> } }[];
  };

  it('applies files that exist, the dashboard as a ConfigMap for Grafana', () => {
    expect(kustomization.resources.filter((file) => !existsSync(join(MONITORING, file)))).toEqual([]);
    expect(kustomization.resources).toEqual(expect.arrayContaining(['pod-monitor.yaml', 'prometheus-rule.yaml']));
    const [generator] = kustomization.configMapGenerator;
    expect(generator.files).toEqual(['grafana-dashboard.json']);
    expect(generator.options?.labels).toMatchObject({ grafana_dashboard: '1' });
  });

  it('scrapes /metrics on the http port of every app, the port its container serves on', () => {
    const [monitor] = yamlDocuments(join(MONITORING, 'pod-monitor.yaml')) as { kind: string; spec: PodMonitorSpec }[];
    expect(monitor.kind).toBe('PodMonitor');
    // The series' own `job` label (mp_job_*) must not be renamed exported_job.
    expect(monitor.spec.podMetricsEndpoints).toEqual([expect.objectContaining({ port: 'http', path: '/metrics', honorLabels: true })]);
    expect(documentedMetrics().get('mp_job_failures_total')?.labels).toContain('job');
    const deployments = baseObjects().filter(({ kind }) => kind === 'Deployment') as unknown as AppDeployment[];
    const selected = (labels: Record<string, string>): boolean =>
      Object.entries(monitor.spec.selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value) &&
      (monitor.spec.selector.matchExpressions ?? []).every(({ key, operator, values }) => operator === 'In' && values.includes(labels[key]));
    for (const app of APPS) {
      const deployment = deployments.find(({ spec }) => spec.template.spec.containers[0].args?.[0] === app);
      expect({ app, selected: deployment !== undefined && selected(deployment.spec.template.metadata.labels) }).toEqual({ app, selected: true });
      expect(deployment?.spec.template.spec.containers[0].ports?.map(({ name }) => name)).toContain('http');
    }
  });
});

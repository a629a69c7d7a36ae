// The monitoring files of k8s/ as data: the rules of k8s/monitoring, the Grafana dashboard and its
// queries, and the queries of the workers' KEDA triggers in the base kustomization.
import { join } from 'node:path';
import { parse } from 'yaml';
import { K8S, read, yamlDocuments } from './platform-facts';

export const MONITORING = join(K8S, 'monitoring');

export interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface RuleFile {
  groups: { name: string; rules: Rule[] }[];
}

export interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: { expr: string; refId: string }[];
}

export interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query?: string | { query: string } }[] };
}

export interface K8sObject {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

export const rulesFile = yamlDocuments(join(MONITORING, 'messaging.rules.yml'))[0] as RuleFile;
export const rules = rulesFile.groups.flatMap(({ rules: groupRules }) => groupRules);
export const alerts = rules.filter((rule) => rule.alert !== undefined);
export const recorded = new Map(rules.filter((rule) => rule.record !== undefined).map((rule) => [rule.record as string, rule.expr]));
export const dashboard = JSON.parse(read(join(MONITORING, 'grafana-dashboard.json'))) as Dashboard;

/** The objects the base kustomization applies (k8s/*.yaml it lists). */
export function baseObjects(): K8sObject[] {
  const { resources } = parse(read(join(K8S, 'kustomization.yaml'))) as { resources: string[] };
  return resources.flatMap((file) => yamlDocuments(join(K8S, file))).filter((doc) => doc !== null) as K8sObject[];
}

export function kedaQueries(): string[] {
  return baseObjects()
    .filter(({ kind }) => kind === 'ScaledObject')
    .flatMap(({ spec }) => (spec?.triggers as { metadata: { query?: string } }[]).map(({ metadata }) => metadata.query ?? ''));
}

export function dashboardQueries(): string[] {
  const panelQueries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map(({ expr }) => expr));
  const variableQueries = dashboard.templating.list.flatMap(({ query }) => (typeof query === 'object' ? [query.query] : []));
  return [...panelQueries, ...variableQueries];
}

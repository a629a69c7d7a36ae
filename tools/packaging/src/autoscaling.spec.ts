// Checks the workers' KEDA ScaledObjects in k8s/: one prometheus trigger per queue each app's
// definition consumes, on the backlog it exports, all asking the Prometheus of autoscaling-settings.yaml.
import { join } from 'node:path';
import { parse } from 'yaml';
import { consumedQueues, K8S, QUEUES, queuesOf, read, WORKERS, yamlDocuments } from './platform-facts';

interface K8sObject {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
}

interface ScaledObject extends K8sObject {
  spec: {
    scaleTargetRef: { name: string; kind?: string };
    minReplicaCount?: number;
    maxReplicaCount?: number;
    triggers: { type: string; metadata: Record<string, string>; authenticationRef?: { name: string } }[];
  };
}

interface ConfigMap extends K8sObject {
  data: Record<string, string>;
}

interface KustomizeReplacements {
  replacements?: unknown[];
}

/** The queue of a trigger's query, which must be exactly max(mp_queue_backlog{queue="<queue>"}). */
function backlogQueue(query: string | undefined): string | undefined {
  return /^max\(mp_queue_backlog\{queue="([^"]+)"\}\)$/.exec(query ?? '')?.[1];
}

describe('k8s/ autoscaling of the workers', () => {
  const kustomization = parse(read(join(K8S, 'kustomization.yaml'))) as { resources: string[] };
  const objects = kustomization.resources.flatMap((file) => yamlDocuments(join(K8S, file))).filter((doc) => doc !== null) as K8sObject[];
  const all = <T extends K8sObject>(kind: string): T[] => objects.filter((object) => object.kind === kind) as T[];
  const named = <T extends K8sObject>(kind: string, name: string): T | undefined => all<T>(kind).find((object) => object.metadata.name === name);

  it.each(WORKERS)('%s: consumes the queues its app definition lists', (worker) => {
    expect(queuesOf(worker).sort()).toEqual(consumedQueues(worker).sort());
  });

  it.each(WORKERS)('%s: KEDA scales it on the exported backlog of every queue it consumes', (worker) => {
    const scaled = all<ScaledObject>('ScaledObject').filter(({ spec }) => spec.scaleTargetRef.name === worker);
    expect(scaled).toHaveLength(1);
    const { spec } = scaled[0];
    expect(spec.scaleTargetRef.kind ?? 'Deployment').toBe('Deployment');
    expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(spec.maxReplicaCount).toBeGreaterThanOrEqual(spec.minReplicaCount ?? 1);
    for (const trigger of spec.triggers) {
      expect(trigger.type).toBe('prometheus');
      expect(trigger.metadata.threshold).toMatch(/^[1-9]\d*$/);
      // An empty answer must not read as an empty backlog.
      expect(trigger.metadata.ignoreNullValues).toBe('false');
    }
    const queues = spec.triggers.map(({ metadata }) => backlogQueue(metadata.query)).sort();
    expect(queues).toEqual(consumedQueues(worker).sort());
  });

  it('asks every trigger of one Prometheus, whose address kustomize copies from autoscaling-settings.yaml', () => {
    const settings = named<ConfigMap>('ConfigMap', 'autoscaling-settings');
    expect(settings?.metadata.annotations?.['config.kubernetes.io/local-config']).toBe('true');
    const address = settings?.data.PROMETHEUS_SERVER_ADDRESS ?? '';
    expect(address).toMatch(/^https?:\/\/[^\s/]+/);
    const triggers = all<ScaledObject>('ScaledObject').flatMap(({ spec }) => spec.triggers);
    expect(triggers.length).toBeGreaterThan(0);
    expect(triggers.filter(({ metadata }) => metadata.serverAddress !== address)).toEqual([]);
    const { replacements } = parse(read(join(K8S, 'kustomization.yaml'))) as KustomizeReplacements;
    expect(replacements).toContainEqual({
      source: { kind: 'ConfigMap', name: 'autoscaling-settings', fieldPath: 'data.PROMETHEUS_SERVER_ADDRESS' },
      targets: [{ select: { kind: 'ScaledObject' }, fieldPaths: ['spec.triggers.*.metadata.serverAddress'] }],
    });
  });

  it('watches each known queue once', () => {
    const watched = all<ScaledObject>('ScaledObject').flatMap(({ spec }) => spec.triggers.map(({ metadata }) => backlogQueue(metadata.query)));
    expect([...watched].sort()).toEqual(Object.keys(QUEUES).sort());
  });
});

// Checks k8s/ (the kustomize base: Deployments, Services, the gateway's HPA, disruption budgets) against the platform's
// facts; the workers' ScaledObjects: autoscaling.spec.ts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { APP_PORTS, APPS, GATEWAY_SECRETS, K8S, QUEUE_PREFIX, read, WORKERS, yamlDocuments, type AppName } from './platform-facts';

interface Metadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Metadata;
}

interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
}

interface Probe {
  httpGet?: { path: string; port: number | string };
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string }[];
}

interface PodTemplate {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    containers: Container[];
    securityContext?: SecurityContext;
    volumes?: { name: string; emptyDir?: object }[];
    restartPolicy?: string;
  };
}

interface Deployment extends K8sObject {
  spec: { replicas?: number; selector: { matchLabels: Record<string, string> }; template: PodTemplate };
}

interface Job extends K8sObject {
  spec: { template: PodTemplate };
}

interface TriggerAuthentication extends K8sObject {
  spec: { secretTargetRef: { parameter: string; name: string; key: string }[] };
}

interface HorizontalPodAutoscaler extends K8sObject {
  spec: {
    scaleTargetRef: { apiVersion: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    metrics: { type: string; resource?: { name: string; target: { type: string } } }[];
  };
}

interface PodDisruptionBudget extends K8sObject {
  spec: { selector: { matchLabels: Record<string, string> }; minAvailable?: number | string; maxUnavailable?: number | string };
}

interface Service extends K8sObject {
  spec: { selector: Record<string, string>; ports: { port: number; targetPort: number | string }[] };
}

interface ConfigMap extends K8sObject {
  data: Record<string, string>;
}

interface Kustomization {
  namespace?: string;
  resources: string[];
}

/** The port number a probe or Service names: a number, or the name of one of the container's ports. */
function portNumber(container: Container, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

function envValue(container: Container, name: string): string | undefined {
  return container.env?.find((variable) => variable.name === name)?.value;
}

function secretKeys(template: PodTemplate, which: 'all' | 'required' | 'optional' = 'all'): string[] {
  return template.spec.containers.flatMap((container) =>
    (container.env ?? []).flatMap((variable) => {
      const ref = variable.valueFrom?.secretKeyRef;
      if (!ref || (which === 'required' && ref.optional) || (which === 'optional' && !ref.optional)) return [];
      return [ref.key];
    }),
  );
}

function selects(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

describe('k8s/', () => {
  const kustomization = parse(read(join(K8S, 'kustomization.yaml'))) as Kustomization;
  const listed = kustomization.resources.filter((file) => existsSync(join(K8S, file)));
  const objects = listed.flatMap((file) => yamlDocuments(join(K8S, file)).filter((doc) => doc !== null)) as K8sObject[];
  const secretTemplate = yamlDocuments(join(K8S, 'secret.example.yaml'))[0] as { stringData: Record<string, string> };

  const all = <T extends K8sObject>(kind: string): T[] => objects.filter((object) => object.kind === kind) as T[];
  const named = <T extends K8sObject>(kind: string, name: string): T | undefined => all<T>(kind).find((object) => object.metadata.name === name);
  const deployment = (app: AppName): Deployment => {
    const found = named<Deployment>('Deployment', app);
    if (!found) throw new Error(`no Deployment ${app} in k8s/`);
    return found;
  };
  const container = (app: AppName): Container => {
    const { containers } = deployment(app).spec.template.spec;
    expect(containers).toHaveLength(1);
    return containers[0];
  };

  it('kustomization.yaml lists files that exist, all in namespace messaging, not the Secret template', () => {
    expect(kustomization.resources.filter((file) => !existsSync(join(K8S, file)))).toEqual([]);
    expect(kustomization.resources).not.toContain('secret.example.yaml');
    expect(kustomization.namespace).toBe('messaging');
    expect(named('Namespace', 'messaging')).toBeDefined();
    for (const object of objects) {
      expect(object.apiVersion).toBeTruthy();
      expect(object.metadata.name).toBeTruthy();
      if (object.metadata.namespace) expect(object.metadata.namespace).toBe('messaging');
    }
  });

  it('shares production settings through a ConfigMap, with the default QUEUE_PREFIX', () => {
    const config = named<ConfigMap>('ConfigMap', 'messaging-config');
    expect(config?.data).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', QUEUE_PREFIX: QUEUE_PREFIX });
  });

  it.each(APPS)('%s: Deployment runs the app on its port, with the shared config', (app) => {
    const main = container(app);
    const port = APP_PORTS[app];
    expect(main.args).toEqual([app]);
    expect(main.ports?.map(({ containerPort }) => containerPort)).toEqual([port]);
    expect(envValue(main, 'PORT')).toBe(String(port));
    expect(main.envFrom).toContainEqual({ configMapRef: { name: 'messaging-config' } });
    expect(secretKeys(deployment(app).spec.template)).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL']));
    expect(deployment(app).spec.replicas).toBeUndefined(); // the autoscaler owns the count
  });

  it.each(APPS)('%s: probes /health/live (startup, liveness) and /health/ready (readiness) on its port', (app) => {
    const main = container(app);
    const port = APP_PORTS[app];
    const probe = (which: Probe | undefined) => ({ path: which?.httpGet?.path, port: portNumber(main, which?.httpGet?.port) });
    expect(probe(main.startupProbe)).toEqual({ path: '/health/live', port });
    expect(probe(main.livenessProbe)).toEqual({ path: '/health/live', port });
    expect(probe(main.readinessProbe)).toEqual({ path: '/health/ready', port });
  });

  it.each(APPS)('%s: sets resources and runs non-root on a read-only root filesystem with /tmp writable', (app) => {
    const main = container(app);
    const pod = deployment(app).spec.template.spec;
    for (const section of ['requests', 'limits'] as const) {
      expect(Object.keys(main.resources?.[section] ?? {}).sort()).toEqual(['cpu', 'memory']);
    }
    expect(main.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot).toBe(true);
    expect(main.securityContext?.runAsUser ?? pod.securityContext?.runAsUser).not.toBe(0);
    expect(main.securityContext?.readOnlyRootFilesystem).toBe(true);
    expect(main.securityContext?.allowPrivilegeEscalation).toBe(false);
    const tmp = main.volumeMounts?.find(({ mountPath }) => mountPath === '/tmp');
    expect(pod.volumes?.find(({ name }) => name === tmp?.name)?.emptyDir).toBeDefined();
  });

  it.each(APPS)('%s: pods carry Prometheus scrape annotations for their port', (app) => {
    expect(deployment(app).spec.template.metadata.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(APP_PORTS[app]),
      'prometheus.io/path': '/metrics',
    });
  });

  it.each(APPS)('%s: has a PodDisruptionBudget over its pods', (app) => {
    const budget = named<PodDisruptionBudget>('PodDisruptionBudget', app);
    expect(budget).toBeDefined();
    expect(selects(budget?.spec.selector.matchLabels ?? {}, deployment(app).spec.template.metadata.labels)).toBe(true);
    expect(budget?.spec.minAvailable ?? budget?.spec.maxUnavailable).toBeDefined();
  });

  it('scales the gateway on CPU with an HPA and serves it through a Service on its port', () => {
    const hpa = all<HorizontalPodAutoscaler>('HorizontalPodAutoscaler').filter(({ spec }) => spec.scaleTargetRef.name === 'gateway');
    expect(hpa).toHaveLength(1);
    expect(hpa[0].apiVersion).toBe('autoscaling/v2');
    expect(hpa[0].spec.scaleTargetRef.kind).toBe('Deployment');
    expect(hpa[0].spec.metrics).toContainEqual(expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }));
    expect(hpa[0].spec.minReplicas).toBeGreaterThanOrEqual(2);

    const gateway = deployment('gateway');
    const services = all<Service>('Service').filter(({ spec }) => selects(spec.selector, gateway.spec.template.metadata.labels));
    expect(services).toHaveLength(1);
    const targets = services[0].spec.ports.map(({ targetPort }) => portNumber(container('gateway'), targetPort));
    expect(targets).toEqual([APP_PORTS.gateway]);
  });

  it('keeps the gateway secrets away from the workers', () => {
    expect(secretKeys(deployment('gateway').spec.template)).toEqual(expect.arrayContaining(GATEWAY_SECRETS));
    for (const worker of WORKERS) {
      expect(secretKeys(deployment(worker).spec.template).filter((key) => GATEWAY_SECRETS.includes(key))).toEqual([]);
      expect(container(worker).envFrom?.some(({ secretRef }) => secretRef)).toBeFalsy();
    }
  });

  it('migrates with a Job that runs the admin db:migrate from the apps image, non-root', () => {
    const jobs = all<Job>('Job');
    expect(jobs).toHaveLength(1);
    const pod = jobs[0].spec.template.spec;
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.containers).toHaveLength(1);
    expect(pod.containers[0].args).toEqual(['migrate']);
    expect(pod.containers[0].image).toBe(container('gateway').image);
    expect(pod.containers[0].securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot).toBe(true);
  });

  it('references only Secret keys that the template defines, or names as optional', () => {
    const defined = Object.keys(secretTemplate.stringData);
    const templates = [...all<Deployment>('Deployment'), ...all<Job>('Job')].map(({ spec }) => spec.template);
    const optional = [...new Set(templates.flatMap((template) => secretKeys(template, 'optional')))];
    const templateText = read(join(K8S, 'secret.example.yaml'));
    expect(optional.filter((key) => !defined.includes(key) && !new RegExp(`\\b${key}\\b`).test(templateText))).toEqual([]);
    const referenced = [
      ...templates.flatMap((template) => secretKeys(template, 'required')),
      ...all<TriggerAuthentication>('TriggerAuthentication').flatMap(({ spec }) => spec.secretTargetRef.map(({ key }) => key)),
    ];
    expect(referenced.length).toBeGreaterThan(0);
    expect(defined).toEqual(expect.arrayContaining([...new Set(referenced)]));
  });

  it('every app image is the one kustomize sets', () => {
    const images = (parse(read(join(K8S, 'kustomization.yaml'))) as { images?: { name: string }[] }).images ?? [];
    for (const app of APPS) expect(images.map(({ name }) => name)).toContain(container(app).image);
  });
});

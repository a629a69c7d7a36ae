// Checks the deployment files users run — docker/ (image, compose) and k8s/ (kustomize) — against
// the platform's facts: which apps exist, the port each serves, the queues each worker consumes.
// Nothing here needs Docker or a cluster: the files are parsed and their properties asserted.
import { CredentialEnv, loadConfig } from '@mp/config';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = join(__dirname, '..', '..', '..');
const DOCKER = join(ROOT, 'docker');
const K8S = join(ROOT, 'k8s');

/** Every BullMQ queue of the platform and the app that consumes it: the one list checked here. */
const QUEUES = {
  'sms.dispatch': 'sms-dispatcher',
  'otp.dispatch': 'sms-dispatcher',
  'campaign.dispatch': 'sms-dispatcher',
  'otp.deliver': 'otp',
  'delivery.events': 'webhook-notifier',
  'webhook.deliver': 'webhook-notifier',
  'billing.settle': 'billing',
} as const;

/** The default QUEUE_PREFIX: BullMQ keeps a queue's waiting jobs in the list <prefix>:<queue>:wait. */
const QUEUE_PREFIX = 'mp';

/** Every app and the port of its HTTP server: the gateway's API, the workers' health endpoints. */
const APP_PORTS = {
  gateway: 3000,
  otp: 3101,
  'sms-dispatcher': 3102,
  billing: 3103,
  'webhook-notifier': 3104,
} as const;

type AppName = keyof typeof APP_PORTS;
const APPS = Object.keys(APP_PORTS) as AppName[];
const WORKERS = APPS.filter((app) => app !== 'gateway');

/** Only the gateway (and the admin tool that migrates) may see these. */
const GATEWAY_SECRETS = ['API_KEY_PEPPER', 'JWT_SECRET'];

function queuesOf(app: AppName): string[] {
  return Object.entries(QUEUES)
    .filter(([, consumer]) => consumer === app)
    .map(([queue]) => queue);
}

function waitList(queue: string): string {
  return `${QUEUE_PREFIX}:${queue}:wait`;
}

function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Every document of a YAML file, as plain data; fails on any syntax error. */
function yamlDocuments(path: string): unknown[] {
  const documents = parseAllDocuments(read(path));
  return documents.map((document) => {
    if (document.errors.length > 0) {
      throw new Error(`${relative(ROOT, path)}: ${document.errors.map((error) => error.message).join('; ')}`);
    }
    return document.toJS() as unknown;
  });
}

// ---------------------------------------------------------------------------------------------
// docker/Dockerfile

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  base: string;
  name?: string;
  instructions: Instruction[];
}

/**
 * Splits a Dockerfile into stages of instructions: comments dropped, continuation lines joined,
 * ${ARG} in FROM replaced by the ARG's default.
 */
function parseDockerfile(text: string): Stage[] {
  const logicalLines: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (line.trimEnd().endsWith('\\')) {
      pending += line.trimEnd().slice(0, -1) + ' ';
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    if (full !== '') logicalLines.push(full);
  }
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  for (const line of logicalLines) {
    const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: rest };
    if (instruction.keyword === 'FROM') {
      const [, base, name] = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest) ?? [];
      stages.push({ base: base.replace(/\$\{(\w+)\}/g, (_, arg: string) => args.get(arg) ?? ''), name, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [name, value = ''] = rest.split('=');
      args.set(name, value);
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return stages;
}

/** KEY=value pairs of a stage's ENV instructions. */
function stageEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of stage.instructions.filter(({ keyword }) => keyword === 'ENV')) {
    for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) env[key] = value;
  }
  return env;
}

const runs = (stage: Stage, command: RegExp): boolean =>
  stage.instructions.some(({ keyword, args }) => keyword === 'RUN' && command.test(args));

describe('docker/Dockerfile', () => {
  const stages = parseDockerfile(read(join(DOCKER, 'Dockerfile')));
  const runtime = stages[stages.length - 1];
  const stageNamed = (name: string): Stage | undefined => stages.find((stage) => stage.name === name);

  it('is multi-stage on node:20-bookworm-slim: npm ci, then npm run build', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    stages.forEach((stage, index) => {
      const earlier = stages.slice(0, index).map(({ name }) => name);
      expect([...earlier, 'node:20-bookworm-slim']).toContain(stage.base);
    });
    const building = stages.filter((stage) => runs(stage, /\bnpm run build\b/));
    expect(building).toHaveLength(1);
    // The build stage has every dependency, dev included (the compiler is one).
    const lineage: Stage[] = [];
    for (let stage: Stage | undefined = building[0]; stage; stage = stageNamed(stage.base)) lineage.push(stage);
    expect(lineage.some((stage) => runs(stage, /\bnpm ci\b(?!.*--omit=dev)/))).toBe(true);
  });

  it('gives the runtime stage production dependencies only and the compiled output', () => {
    const copies = runtime.instructions.filter(({ keyword }) => keyword === 'COPY').map(({ args }) => args);
    const modules = copies.filter((args) => /\bnode_modules\b/.test(args));
    expect(modules).toHaveLength(1);
    const [, from] = /--from=(\S+)/.exec(modules[0]) ?? [];
    const source = stageNamed(from);
    expect(source && runs(source, /\bnpm ci\b.*--omit=dev/)).toBe(true);
    expect(copies.some((args) => /--from=\S+\s+\S*dist\/out\b/.test(args))).toBe(true);
    expect(copies.some((args) => /tools\/runtime\/register\.js/.test(args))).toBe(true);
  });

  it('runs the runtime stage as a non-root user, in production, bound to all interfaces', () => {
    const users = runtime.instructions.filter(({ keyword }) => keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1].args.split(':')[0];
    expect(['root', '0', '']).not.toContain(user);
    expect(stageEnv(runtime)).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', QUEUE_PREFIX: QUEUE_PREFIX });
  });

  it('has a health check on /health/ready and starts through docker/entrypoint.sh', () => {
    const healthchecks = runtime.instructions.filter(({ keyword }) => keyword === 'HEALTHCHECK');
    expect(healthchecks).toHaveLength(1);
    expect(healthchecks[0].args).toMatch(/\/health\/ready/);
    expect(healthchecks[0].args).not.toMatch(/^NONE\b/i);
    const entrypoint = runtime.instructions.filter(({ keyword }) => keyword === 'ENTRYPOINT');
    expect(entrypoint).toHaveLength(1);
    expect(entrypoint[0].args).toMatch(/docker\/entrypoint\.sh/);
  });

  it('copies only files that exist and that the build context lets through', () => {
    const allowed = read(join(DOCKER, 'Dockerfile.dockerignore'))
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => line.slice(1).replace(/\/$/, ''));
    const sources = stages
      .flatMap((stage) => stage.instructions)
      .filter(({ keyword, args }) => keyword === 'COPY' && !args.includes('--from='))
      .flatMap(({ args }) => args.split(/\s+/).filter((word) => !word.startsWith('--')).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect({ source, exists: existsSync(join(ROOT, source)) }).toEqual({ source, exists: true });
      const passes = allowed.some((entry) => source === entry || source.startsWith(`${entry}/`));
      expect({ source, passes }).toEqual({ source, passes: true });
    }
  });

  it('keeps dependencies, build output and env files out of the build context', () => {
    const ignore = read(join(DOCKER, 'Dockerfile.dockerignore')).split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '**/.env']));
  });
});

describe('docker/entrypoint.sh and docker/healthcheck.js', () => {
  const entrypoint = read(join(DOCKER, 'entrypoint.sh'));

  it('execs the chosen app with the path aliases registered', () => {
    expect(entrypoint.startsWith('#!/bin/sh\n')).toBe(true);
    expect(entrypoint).toContain('dist/out/apps/$APP/src/main.js');
    expect(entrypoint).toMatch(/exec node -r \.\/tools\/runtime\/register\.js "\$main"/);
  });

  it('runs the admin db:migrate for APP=migrate', () => {
    const migrate = /^\s*migrate\)\s*\n\s*(.*)$/m.exec(entrypoint)?.[1] ?? '';
    expect(migrate).toMatch(/^exec node -r \.\/tools\/runtime\/register\.js "\$admin_cli" db:migrate/);
    expect(entrypoint).toContain('admin_cli=dist/out/tools/admin/src/main.js');
  });

  it('knows the default port of every app', () => {
    const healthcheck = read(join(DOCKER, 'healthcheck.js'));
    for (const app of APPS) {
      expect(healthcheck).toMatch(new RegExp(`['"]?${app}['"]?: ${APP_PORTS[app]},`));
    }
  });
});

// ---------------------------------------------------------------------------------------------
// docker/docker-compose.yml and docker/.env.example

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  restart?: string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
}

describe('docker/docker-compose.yml', () => {
  const composeText = read(join(DOCKER, 'docker-compose.yml'));
  // Compose files use YAML merge keys (<<: *anchor) for what services share.
  const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService> };
  const { services } = compose;
  const migrate = services.migrate;

  it('runs PostgreSQL 16 and Redis 7 with health checks and volumes', () => {
    expect(services.postgres.image).toBe('postgres:16');
    expect(services.redis.image).toBe('redis:7');
    for (const name of ['postgres', 'redis']) {
      expect(services[name].healthcheck?.test?.length).toBeGreaterThan(0);
      expect(services[name].volumes?.length).toBeGreaterThan(0);
    }
  });

  it('has a one-shot migrate service built from docker/Dockerfile at the repository root', () => {
    expect(migrate.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile' });
    expect(migrate.command).toEqual(['migrate']);
    expect(migrate.restart).toBe('no');
    expect(migrate.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
  });

  it.each(APPS)('%s: runs the shared image once migrate succeeded and the stores are healthy', (app) => {
    const service = services[app];
    expect(service).toBeDefined();
    expect(service.image).toBe(migrate.image);
    expect(service.build).toBeUndefined();
    expect(service.command).toEqual([app]);
    expect(service.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      migrate: { condition: 'service_completed_successfully' },
    });
  });

  it.each(APPS)('%s: listens on its port on all interfaces and is probed on /health/ready', (app) => {
    const service = services[app];
    expect(service.environment).toMatchObject({
      NODE_ENV: 'production',
      HOST: '0.0.0.0',
      PORT: String(APP_PORTS[app]),
    });
    expect(service.environment?.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(service.environment?.REDIS_URL).toMatch(/^redis:\/\//);
    expect(service.environment?.QUEUE_PREFIX).toMatch(new RegExp(`^\\$\\{QUEUE_PREFIX:-${QUEUE_PREFIX}\\}$`));
    expect(service.healthcheck?.test?.join(' ')).toContain('/health/ready');
  });

  it('publishes the gateway on 3000 and nothing else', () => {
    expect(services.gateway.ports).toEqual([`${APP_PORTS.gateway}:${APP_PORTS.gateway}`]);
    for (const [name, service] of Object.entries(services)) {
      if (name !== 'gateway') expect({ name, ports: service.ports }).toEqual({ name, ports: undefined });
    }
  });

  it('gives the gateway its secrets and the workers none of them', () => {
    for (const secret of GATEWAY_SECRETS) expect(services.gateway.environment?.[secret]).toBeTruthy();
    for (const worker of WORKERS) {
      for (const secret of GATEWAY_SECRETS) expect(services[worker].environment).not.toHaveProperty(secret);
    }
  });

  it('requires only variables that docker/.env.example defines', () => {
    const required = new Set([...composeText.matchAll(/\$\{(\w+):\?/g)].map(([, name]) => name));
    expect(required.size).toBeGreaterThan(0);
    const defined = Object.keys(envFile(read(join(DOCKER, '.env.example'))));
    expect(defined).toEqual(expect.arrayContaining([...required]));
  });
});

// ---------------------------------------------------------------------------------------------
// Secrets

/** KEY=value lines of an env file (comments and blank lines skipped). */
function envFile(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, key, value]) => [key, value] as const);
  return Object.fromEntries(entries);
}

const SECRET_NAME = /SECRET|PEPPER|PASSWORD|TOKEN/;
const PLACEHOLDER = /^change[-_]?me$/i;

/** Files under a directory, recursively. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Long tokens mixing upper case, lower case and digits, or long hex: what keys and passwords look like. */
function secretLooking(text: string): string[] {
  const tokens = text.match(/[A-Za-z0-9+/=_-]{24,}/g) ?? [];
  return tokens.filter((token) => {
    const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((pattern) => pattern.test(token)).length;
    return classes === 3 || /^[0-9a-f]{32,}$/i.test(token);
  });
}

describe('secrets', () => {
  const envExampleText = read(join(DOCKER, '.env.example'));
  const envExample = envFile(envExampleText);
  const secretTemplate = yamlDocuments(join(K8S, 'secret.example.yaml'))[0] as { kind: string; stringData: Record<string, string> };

  it('docker/.env.example has placeholders only, and says how to generate real values', () => {
    const secrets = Object.keys(envExample).filter((key) => SECRET_NAME.test(key));
    expect(secrets).toEqual(expect.arrayContaining([...GATEWAY_SECRETS, 'POSTGRES_PASSWORD']));
    for (const key of secrets) expect({ key, value: envExample[key] }).toEqual({ key, value: expect.stringMatching(PLACEHOLDER) });
    expect(envExampleText).toContain('openssl rand -base64 48');
  });

  it('the gateway refuses the placeholder pepper in production', () => {
    expect(() => loadConfig(CredentialEnv, { NODE_ENV: 'production', API_KEY_PEPPER: envExample.API_KEY_PEPPER })).toThrow(
      /API_KEY_PEPPER/,
    );
  });

  it('k8s/secret.example.yaml is a template with placeholders, including inside URLs', () => {
    expect(secretTemplate.kind).toBe('Secret');
    for (const [key, value] of Object.entries(secretTemplate.stringData)) {
      if (SECRET_NAME.test(key)) expect({ key, value }).toEqual({ key, value: expect.stringMatching(PLACEHOLDER) });
      if (/^\w+:\/\//.test(value)) {
        const password = decodeURIComponent(new URL(value).password);
        expect({ key, password }).toEqual({ key, password: expect.stringMatching(PLACEHOLDER) });
      }
    }
    expect(read(join(K8S, 'secret.example.yaml'))).toContain('openssl rand -base64 48');
  });

  it('no file under docker/ or k8s/ holds a real-looking secret or key', () => {
    for (const path of [...filesUnder(DOCKER), ...filesUnder(K8S)]) {
      const text = read(path);
      expect({ file: relative(ROOT, path), found: secretLooking(text) }).toEqual({ file: relative(ROOT, path), found: [] });
      expect(text).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// k8s/

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
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
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

interface ScaledObject extends K8sObject {
  spec: {
    scaleTargetRef: { name: string; kind?: string };
    minReplicaCount?: number;
    maxReplicaCount?: number;
    triggers: { type: string; metadata: Record<string, string>; authenticationRef?: { name: string } }[];
  };
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

function secretKeys(template: PodTemplate): string[] {
  return template.spec.containers.flatMap((container) =>
    (container.env ?? []).flatMap((variable) => (variable.valueFrom?.secretKeyRef ? [variable.valueFrom.secretKeyRef.key] : [])),
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
  const named = <T extends K8sObject>(kind: string, name: string): T | undefined =>
    all<T>(kind).find((object) => object.metadata.name === name);
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

  it('shares production settings through a ConfigMap whose QUEUE_PREFIX the scalers use', () => {
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

  it.each(WORKERS)('%s: KEDA scales it on the wait list of every queue it consumes', (worker) => {
    const scaled = all<ScaledObject>('ScaledObject').filter(({ spec }) => spec.scaleTargetRef.name === worker);
    expect(scaled).toHaveLength(1);
    const { spec } = scaled[0];
    expect(spec.scaleTargetRef.kind ?? 'Deployment').toBe('Deployment');
    expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(spec.maxReplicaCount).toBeGreaterThanOrEqual(spec.minReplicaCount ?? 1);
    for (const trigger of spec.triggers) {
      expect(trigger.type).toBe('redis');
      expect(trigger.metadata.listLength).toMatch(/^[1-9]\d*$/);
      expect(named('TriggerAuthentication', trigger.authenticationRef?.name ?? '')).toBeDefined();
    }
    const lists = spec.triggers.map(({ metadata }) => metadata.listName).sort();
    expect(lists).toEqual(queuesOf(worker).map(waitList).sort());
  });

  it('watches no list but the wait lists of known queues', () => {
    const known = Object.keys(QUEUES).map(waitList);
    const watched = all<ScaledObject>('ScaledObject').flatMap(({ spec }) => spec.triggers.map(({ metadata }) => metadata.listName));
    expect(watched.filter((list) => !known.includes(list))).toEqual([]);
    expect(new Set(watched).size).toBe(watched.length);
  });

  it('scales the gateway on CPU with an HPA and serves it through a Service on its port', () => {
    const hpa = all<HorizontalPodAutoscaler>('HorizontalPodAutoscaler').filter(({ spec }) => spec.scaleTargetRef.name === 'gateway');
    expect(hpa).toHaveLength(1);
    expect(hpa[0].apiVersion).toBe('autoscaling/v2');
    expect(hpa[0].spec.scaleTargetRef.kind).toBe('Deployment');
    expect(hpa[0].spec.metrics).toContainEqual(
      expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }),
    );
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

  it('references only Secret keys that the template defines', () => {
    const defined = Object.keys(secretTemplate.stringData);
    const referenced = [
      ...all<Deployment>('Deployment').flatMap(({ spec }) => secretKeys(spec.template)),
      ...all<Job>('Job').flatMap(({ spec }) => secretKeys(spec.template)),
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

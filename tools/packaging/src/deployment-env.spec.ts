// The deployment files boot: the environment each compose service and each Kubernetes Deployment
// and Job gives its process, rendered from the files and their examples, passes that process's
// own configuration loader (its real env class) with NODE_ENV=production.
import { ConfigError, envVariables } from '@mp/config';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { composeProcess, parseDotenv, renderCompose, serviceEnv, type ComposeService, type Env } from './compose-env';
import { imageEnv } from './dockerfile';
import { DEPLOYED, loadEnvClass, TRACED_PROCESSES, TRACING_ENV, type LoadedEnvClass } from './env-classes';
import { containerEnv, containerProcess, secretValues, type ConfigSources, type Container } from './k8s-env';
import { DOCKER, K8S, read, yamlDocuments } from './platform-facts';
import { fillPlaceholders, placeholderKeys } from './placeholders';

interface Booted {
  /** Where the environment comes from: `compose service gateway`, `Deployment gateway`. */
  source: string;
  process: string | undefined;
  env: Env;
  /** The variables given to this process alone (compose environment/env_file, Kubernetes env). */
  own: string[];
  /** Why docker compose or Kubernetes would not even start it. */
  errors: string[];
}

interface K8sObject {
  kind: string;
  metadata: { name: string };
  data?: Env;
  stringData?: Env;
  spec?: { template?: { spec: { containers: Container[] } } };
}

const IMAGE = imageEnv();

/** The variables a deployed process reads: its own class's, and the tracing settings every app reads beside them. */
async function variablesRead(process: string | undefined): Promise<string[]> {
  const own = envVariables((await loadEnvClass(DEPLOYED[process as keyof typeof DEPLOYED])).envClass);
  return TRACED_PROCESSES.includes(process ?? '') ? [...own, ...envVariables((await loadEnvClass(TRACING_ENV)).envClass)] : own;
}

/** What the process's loader says of an environment: [] when it starts, else the refused variables' messages. */
function refusals(entry: LoadedEnvClass, env: Env): string[] {
  try {
    entry.read(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

/** Every compose service that runs the platform's image, with docker/.env.example as docker/.env, filled in or not. */
function composeEnvironments(filled: boolean): Booted[] {
  const composeFile = join(DOCKER, 'docker-compose.yml');
  const exampleText = read(join(DOCKER, '.env.example'));
  const example = parseDotenv(exampleText);
  const dotenv = filled ? fillPlaceholders(example, exampleText) : example;
  const { services, errors } = renderCompose(read(composeFile), dotenv);
  const readFile = (path: string): string | undefined => {
    // docker/.env is the operator's copy of docker/.env.example.
    const actual = path === join(DOCKER, '.env') ? join(DOCKER, '.env.example') : path;
    if (!existsSync(actual)) return undefined;
    const text = read(actual);
    if (!filled || actual !== join(DOCKER, '.env.example')) return text;
    return Object.entries(fillPlaceholders(parseDotenv(text), text))
      .map(([key, value]) => `${key}=${value}`)
      .join('\n');
  };
  const image = (services['migrate'] as ComposeService | undefined)?.image;
  return Object.entries(services)
    .filter(([, service]) => image !== undefined && service.image === image)
    .map(([name, service]) => {
      const rendered = serviceEnv(service, { imageEnv: IMAGE, dotenv, composeFile, readFile });
      const own = Object.keys(rendered.env).filter((key) => IMAGE[key] !== rendered.env[key]);
      return {
        source: `compose service ${name}`,
        process: composeProcess(service, rendered.env),
        env: rendered.env,
        own,
        errors: [...errors, ...rendered.errors],
      };
    });
}

/** Every Deployment and Job of the kustomization, with k8s/secret.example.yaml as the Secret, filled in or not. */
function k8sEnvironments(filled: boolean): Booted[] {
  const resources = (parse(read(join(K8S, 'kustomization.yaml'))) as { resources: string[] }).resources;
  const texts = new Map(resources.map((file) => [file, read(join(K8S, file))]));
  const objects = resources.flatMap((file) =>
    (yamlDocuments(join(K8S, file)) as (K8sObject | null)[]).filter((doc) => doc !== null).map((doc) => ({ file, doc })),
  );
  const fill = (values: Env, file: string): Env => (filled ? fillPlaceholders(values, texts.get(file) ?? read(join(K8S, file))) : values);
  const secretText = read(join(K8S, 'secret.example.yaml'));
  const secret = yamlDocuments(join(K8S, 'secret.example.yaml'))[0] as K8sObject;
  const sources: ConfigSources = {
    configMaps: Object.fromEntries(
      objects.filter(({ doc }) => doc.kind === 'ConfigMap').map(({ doc, file }) => [doc.metadata.name, fill(doc.data ?? {}, file)]),
    ),
    secrets: { [secret.metadata.name]: filled ? fillPlaceholders(secretValues(secret), secretText) : secretValues(secret) },
  };
  return objects
    .filter(({ doc }) => doc.kind === 'Deployment' || doc.kind === 'Job')
    .flatMap(({ doc }) =>
      (doc.spec?.template?.spec.containers ?? []).map((container) => {
        const { env, errors } = containerEnv(container, IMAGE, sources);
        const own = (container.env ?? []).map(({ name }) => name);
        return { source: `${doc.kind} ${doc.metadata.name}`, process: containerProcess(container, env), env, own, errors };
      }),
    );
}

const PLATFORMS = [
  ['docker compose', composeEnvironments],
  ['Kubernetes', k8sEnvironments],
] as const;

describe.each(PLATFORMS)('%s, filled in as the example files say', (_platform, environments) => {
  const booted = environments(true);
  let classes: Record<string, LoadedEnvClass>;
  beforeAll(async () => {
    classes = Object.fromEntries(await Promise.all(Object.entries(DEPLOYED).map(async ([name, entry]) => [name, await loadEnvClass(entry)] as const)));
  });

  it('runs every process of the platform', () => {
    expect(booted.map(({ process }) => process).sort()).toEqual(expect.arrayContaining(Object.keys(DEPLOYED).sort()));
  });

  it.each(booted.map((item) => [item.source, item] as const))('%s: starts in production', (source, item) => {
    const entry = item.process === undefined ? undefined : classes[item.process];
    expect({ source, process: item.process, registered: entry !== undefined }).toEqual({ source, process: item.process, registered: true });
    expect({ source, refusedBeforeStart: item.errors }).toEqual({ source, refusedBeforeStart: [] });
    expect({ source, NODE_ENV: item.env['NODE_ENV'] }).toEqual({ source, NODE_ENV: 'production' });
    const app = item.process as string;
    expect({ app, source, refused: refusals(classes[app], item.env) }).toEqual({ app, source, refused: [] });
  });
});

describe.each(PLATFORMS)('%s: least privilege', (_platform, environments) => {
  it.each(environments(true).map((item) => [item.source, item] as const))('%s: is given only variables its process reads', async (source, item) => {
    const read = await variablesRead(item.process);
    expect({ source, unread: item.own.filter((key) => !read.includes(key)) }).toEqual({ source, unread: [] });
  });
});

describe('k8s/configmap.yaml', () => {
  it('holds only settings some process reads', async () => {
    const data = (yamlDocuments(join(K8S, 'configmap.yaml'))[0] as K8sObject).data ?? {};
    const read = new Set((await Promise.all(Object.keys(DEPLOYED).map(variablesRead))).flat());
    expect(Object.keys(data).filter((key) => !read.has(key))).toEqual([]);
  });
});

describe.each(PLATFORMS)('%s, with the placeholders left as shipped', (_platform, environments) => {
  const booted = environments(false);

  it.each(booted.map((item) => [item.source, item] as const))('%s: refuses every placeholder it reads, by name', async (_source, item) => {
    const entry = await loadEnvClass(DEPLOYED[item.process as keyof typeof DEPLOYED]);
    const refused = refusals(entry, item.env).map((problem) => problem.split(/[=:]/)[0]);
    const placeholders = placeholderKeys(item.env).filter((key) => envVariables(entry.envClass).includes(key));
    expect(refused).toEqual(expect.arrayContaining(placeholders));
  });
});

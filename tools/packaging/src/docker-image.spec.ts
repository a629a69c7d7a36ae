// Checks that what the image and compose run exists: COPY sources from other stages are what those
// stages produce, every compose command is a file of `npm run build`'s output with its packages
// installed, and every health check asks a route the app serves, on its port.
import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse } from 'yaml';
import { parseDockerfile, type Stage } from './dockerfile';
import { consoleOutDir, entrypointMain, packageJson, runtimePackages, serverBuild, sourceOf } from './image-build';
import { APP_PORTS, APPS, DOCKER, K8S, read, ROOT, WORKERS, yamlDocuments, type AppName } from './platform-facts';

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[]; disable?: boolean };
}

const stages = parseDockerfile(read(join(DOCKER, 'Dockerfile')));
const runtime = stages[stages.length - 1];
const compose = parse(read(join(DOCKER, 'docker-compose.yml')), { merge: true }) as { services: Record<string, ComposeService> };
const appImage = compose.services.migrate.image;
const imageServices = Object.entries(compose.services).filter(([, service]) => service.image === appImage);

/** A stage and the stages it is built FROM, nearest first. */
function lineage(stage: Stage): Stage[] {
  const chain: Stage[] = [];
  for (let current: Stage | undefined = stage; current; current = stages.find(({ name }) => name === current?.base)) chain.push(current);
  return chain;
}

const runsIn = (stage: Stage, command: RegExp): boolean =>
  lineage(stage).some(({ instructions }) => instructions.some(({ keyword, args }) => keyword === 'RUN' && command.test(args)));

function workdir(stage: Stage): string {
  for (const { instructions } of lineage(stage)) {
    const set = instructions.filter(({ keyword }) => keyword === 'WORKDIR');
    if (set.length > 0) return set[set.length - 1].args;
  }
  return '/';
}

/** [source, destination] of each COPY of a stage, destinations absolute. */
function copies(stage: Stage, from?: string): [string, string][] {
  return stage.instructions
    .filter(({ keyword, args }) => keyword === 'COPY' && (from === undefined ? !args.includes('--from=') : args.includes(`--from=${from} `)))
    .flatMap(({ args }) => {
      const words = args.split(/\s+/).filter((word) => !word.startsWith('--'));
      const target = words[words.length - 1];
      const destination = posix.resolve(workdir(stage), target);
      const intoDirectory = target.endsWith('/') || words.length > 2;
      return words.slice(0, -1).map((source): [string, string] => [source, intoDirectory ? posix.join(destination, posix.basename(source)) : destination]);
    });
}

/** Every path the runtime stage has: what it copies in (directories cover what is under them). */
function inImage(path: string): boolean {
  const destinations = [...copies(runtime), ...stages.flatMap(({ name }) => (name ? copies(runtime, name) : []))].map(([, destination]) => destination);
  return destinations.some((destination) => path === destination || path.startsWith(`${destination}/`));
}

/** The routes of libs/health's controller: @Controller('health') + @Get('live') = /health/live. */
function healthRoutes(): string[] {
  const controller = read(join(ROOT, 'libs', 'health', 'src', 'health.controller.ts'));
  const prefix = /@Controller\('([^']+)'\)/.exec(controller)?.[1];
  return [...controller.matchAll(/@Get\('([^']+)'\)/g)].map(([, path]) => `/${prefix}/${path}`);
}

/** The default PORT an app's configuration class declares (apps/<app>/src/<app>.env.ts). */
function declaredPort(app: AppName): number {
  const source = read(join(ROOT, 'apps', app, 'src', `${app}.env.ts`));
  return Number(/\bPORT: number = (\d+);/.exec(source)?.[1]);
}

describe('docker/Dockerfile build output', () => {
  const build = serverBuild();
  const buildStage = stages.find((stage) => stage.instructions.some(({ keyword, args }) => keyword === 'RUN' && /\bnpm run build\b/.test(args)));

  it('gives the build stage everything `npm run build` compiles, and the compiler configuration', () => {
    expect(buildStage).toBeDefined();
    const copied = lineage(buildStage as Stage).flatMap((stage) => copies(stage).map(([source]) => source));
    expect(build.inputs.filter((input) => !copied.includes(input))).toEqual([]);
    const swc = packageJson().scripts['build:server'] ?? '';
    const config = /--config-file (\S+)/.exec(swc)?.[1];
    expect(config).toBeDefined();
    expect(copied).toContain(config);
  });

  it('copies from another stage only what that stage installs or builds', () => {
    for (const stage of stages) {
      for (const { args } of stage.instructions.filter(({ keyword, args: copyArgs }) => keyword === 'COPY' && copyArgs.includes('--from='))) {
        const from = /--from=(\S+)/.exec(args)?.[1] ?? '';
        const source = stages.find(({ name }) => name === from);
        expect({ from, stage: source !== undefined }).toEqual({ from, stage: true });
        for (const [path] of copies(stage, from)) {
          const relativePath = posix.relative(workdir(source as Stage), path);
          const producedBy =
            relativePath === 'node_modules' ? /\bnpm ci\b/ : [build.outDir, consoleOutDir()].includes(relativePath) ? /\bnpm run build\b/ : undefined;
          expect({ path, produced: producedBy !== undefined && runsIn(source as Stage, producedBy) }).toEqual({ path, produced: true });
        }
      }
    }
  });

  it('has the files its ENTRYPOINT, HEALTHCHECK and entrypoint.sh run', () => {
    const run = runtime.instructions.filter(({ keyword }) => ['ENTRYPOINT', 'HEALTHCHECK'].includes(keyword)).map(({ args }) => args);
    const appPaths = run.flatMap((args) => [...args.matchAll(/"(\/app\/[^"]+)"/g)].map(([, path]) => path));
    expect(appPaths.length).toBeGreaterThanOrEqual(2);
    const entrypoint = read(join(DOCKER, 'entrypoint.sh'));
    const loaded = [...entrypoint.matchAll(/-r \.\/(\S+)/g)].map(([, path]) => posix.join(workdir(runtime), path));
    for (const path of [...appPaths, ...loaded, posix.join(workdir(runtime), build.outDir)])
      expect({ path, inImage: inImage(path) }).toEqual({ path, inImage: true });
    // tini, the PID 1 of the ENTRYPOINT, comes from Debian.
    expect(run.join(' ')).toContain('/usr/bin/tini');
    expect(runsIn(runtime, /apt-get install\b.*\btini\b/)).toBe(true);
  });
});

describe('docker/docker-compose.yml commands', () => {
  const build = serverBuild();

  it.each(imageServices.map(([name, service]) => [name, service.command?.[0] ?? '']))(
    '%s: runs `%s`, a file of the build output compiled from a source the build stage has',
    (_service, command) => {
      const compiled = entrypointMain(command);
      const source = sourceOf(compiled);
      expect(source).toBeDefined();
      expect(existsSync(join(ROOT, source as string))).toBe(true);
      expect(build.inputs.some((input) => (source as string).startsWith(`${input}/`))).toBe(true);
      expect(source).not.toMatch(/\.(spec|integration-spec|e2e-spec)\.ts$/);
    },
  );

  it('runs every app, and the migration, through the image', () => {
    const commands = imageServices.map(([, service]) => service.command?.[0]);
    expect(commands).toEqual(expect.arrayContaining([...APPS, 'migrate']));
  });

  it.each([...APPS.map((app) => `apps/${app}/src/main.ts`), 'tools/admin/src/main.ts'])(
    '%s: every package it loads is a production dependency (the image installs --omit=dev)',
    (entry) => {
      const production = Object.keys(packageJson().dependencies);
      expect([...runtimePackages(entry)].filter((name) => !production.includes(name))).toEqual([]);
    },
  );

  it('gives Redis noeviction (an evicted key is a lost job) and an append-only file', () => {
    const command = (compose.services.redis as ComposeService).command?.join(' ') ?? '';
    expect(command).toMatch(/^redis-server\b/);
    expect(command).toMatch(/--maxmemory-policy noeviction\b/);
    expect(command).toMatch(/--appendonly yes\b/);
  });
});

describe('health checks ask routes the apps serve, on their ports', () => {
  const routes = healthRoutes();

  it('libs/health serves /health/live and /health/ready in the gateway and every worker', () => {
    expect(routes.sort()).toEqual(['/health/live', '/health/ready']);
    expect(read(join(ROOT, 'apps', 'gateway', 'src', 'gateway.module.ts'))).toMatch(/\bHealthModule\b/);
    expect(read(join(ROOT, 'libs', 'app-runtime', 'src', 'worker-app.module.ts'))).toMatch(/\bHealthModule\b/);
    for (const worker of WORKERS) expect(read(join(ROOT, 'apps', worker, 'src', 'main.ts'))).toMatch(/\brunWorkerApp\(/);
  });

  it.each(APPS)('%s: its configuration defaults to the port the deployment files use', (app) => {
    expect(declaredPort(app)).toBe(APP_PORTS[app]);
  });

  it('healthcheck.js, the image HEALTHCHECK and compose ask a served route', () => {
    const script = read(join(DOCKER, 'healthcheck.js'));
    expect(routes).toContain(/process\.argv\[2\] \|\| '([^']+)'/.exec(script)?.[1]);
    const healthcheck = runtime.instructions.find(({ keyword }) => keyword === 'HEALTHCHECK')?.args ?? '';
    expect(routes).toContain(/"(\/health\/[^"]+)"/.exec(healthcheck)?.[1]);
    for (const app of APPS) {
      const test = compose.services[app].healthcheck?.test ?? [];
      expect(test.slice(0, 3)).toEqual(['CMD', 'node', '/app/docker/healthcheck.js']);
      expect(routes).toContain(test[3]);
      expect(Number(compose.services[app].environment?.PORT)).toBe(declaredPort(app));
    }
  });

  it('the Kubernetes probes ask a served route on the app port', () => {
    interface Probe {
      httpGet: { path: string; port: string | number };
    }
    interface Container {
      args: string[];
      ports: { name: string; containerPort: number }[];
      startupProbe: Probe;
      livenessProbe: Probe;
      readinessProbe: Probe;
    }
    const containers = APPS.flatMap((app) =>
      (yamlDocuments(join(K8S, `${app}.yaml`)) as { kind: string; spec: { template: { spec: { containers: Container[] } } } }[])
        .filter(({ kind }) => kind === 'Deployment')
        .flatMap(({ spec }) => spec.template.spec.containers),
    );
    expect(containers).toHaveLength(APPS.length);
    for (const container of containers) {
      const app = container.args[0] as AppName;
      for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) {
        const { path, port } = probe.httpGet;
        const number = typeof port === 'number' ? port : container.ports.find(({ name }) => name === port)?.containerPort;
        expect({ app, path: routes.includes(path), port: number }).toEqual({ app, path: true, port: declaredPort(app) });
      }
    }
  });
});

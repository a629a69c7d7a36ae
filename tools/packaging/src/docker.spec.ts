// Checks docker/ (the image, its entrypoint and health check, compose and .env.example) against the platform's facts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { parseDockerfile, stageEnv, type Stage } from './dockerfile';
import { APP_PORTS, APPS, DOCKER, envFile, GATEWAY_SECRETS, QUEUE_PREFIX, read, ROOT, WORKERS } from './platform-facts';

const runs = (stage: Stage, command: RegExp): boolean => stage.instructions.some(({ keyword, args }) => keyword === 'RUN' && command.test(args));

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
      .flatMap(({ args }) =>
        args
          .split(/\s+/)
          .filter((word) => !word.startsWith('--'))
          .slice(0, -1),
      );
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
    expect(entrypoint).toMatch(/exec node \$node_flags -r \.\/tools\/runtime\/register\.js "\$main"/);
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

  it('uses every variable docker/.env.example sets or lists as optional', () => {
    const listed = [...read(join(DOCKER, '.env.example')).matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map(([, name]) => name);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((name) => !composeText.includes(`\${${name}`))).toEqual([]);
  });

  it('requires only variables that docker/.env.example defines', () => {
    const required = new Set([...composeText.matchAll(/\$\{(\w+):\?/g)].map(([, name]) => name));
    expect(required.size).toBeGreaterThan(0);
    const defined = Object.keys(envFile(read(join(DOCKER, '.env.example'))));
    expect(defined).toEqual(expect.arrayContaining([...required]));
  });
});

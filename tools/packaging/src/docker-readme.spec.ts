// Checks that the commands docker/README.md (and the usage comments of the Dockerfile and the
// compose file) tell users to type name files, build stages, compose services, images and app
// commands that exist, from the directory the reader is in.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { parseDockerfile } from './dockerfile';
import { APP_PORTS, APPS, DOCKER, read, ROOT, type AppName } from './platform-facts';

interface Compose {
  services: Record<string, { image?: string; ports?: string[] }>;
}

const COMPOSE_FILES = ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'];
/** The entrypoint's commands besides the apps (docker/entrypoint.sh). */
const TOOL_COMMANDS = ['migrate', 'admin'];
/** Options that take a value, per command (`-v` is a volume to `docker run`, a flag to `compose down`). */
const VALUE_OPTIONS = {
  build: ['-f', '--file', '-t', '--tag', '--target', '--build-arg', '--platform'],
  compose: [
    '-f',
    '--file',
    '-p',
    '--project-name',
    '--env-file',
    '--profile',
    '--scale',
    '-t',
    '--timeout',
    '--tail',
    '-e',
    '--env',
    '--name',
    '-u',
    '--user',
    '-w',
    '--workdir',
    '--entrypoint',
  ],
  run: [
    '-e',
    '--env',
    '--env-file',
    '-p',
    '--publish',
    '--name',
    '-v',
    '--volume',
    '--network',
    '-u',
    '--user',
    '-w',
    '--workdir',
    '--entrypoint',
    '--platform',
  ],
};
/** compose subcommands whose remaining words are service names (`run` and `exec` take one, then a command). */
const COMPOSE_SERVICE_LISTS = ['up', 'down', 'start', 'stop', 'restart', 'logs', 'ps', 'pull', 'build', 'rm', 'kill', 'config', 'create'];

/** Words of a command line: options with their values split from the other (positional) words. */
function words(line: string, command: keyof typeof VALUE_OPTIONS): { options: Map<string, string[]>; flags: string[]; positional: string[] } {
  const options = new Map<string, string[]>();
  const flags: string[] = [];
  const positional: string[] = [];
  const tokens = line.split(/\s+/).filter(Boolean);
  for (let index = 0; index < tokens.length; index += 1) {
    const [name, inline] = tokens[index].split(/=(.*)/s);
    if (VALUE_OPTIONS[command].includes(name)) {
      const value = inline ?? tokens[(index += 1)];
      options.set(name, [...(options.get(name) ?? []), value]);
    } else if (tokens[index].startsWith('-')) flags.push(tokens[index]);
    else positional.push(tokens[index]);
  }
  return { options, flags, positional };
}

interface Checked {
  problems: string[];
  builtTags: string[];
}

class CommandChecker {
  private cwd = ROOT;
  readonly problems: string[] = [];

  constructor(private readonly builtTags: string[]) {}

  /** Checks a block of lines typed one after the other from `cwd`; a `cd` holds until the block ends. */
  runBlock({ source, lines, cwd }: Block): void {
    this.cwd = cwd;
    for (const line of lines) {
      for (const command of line
        .replace(/\s+#\s.*$/, '')
        .split('&&')
        .map((part) => part.trim())) {
        if (command !== '') this.check(source, command);
      }
    }
  }

  private problem(source: string, command: string, what: string): void {
    this.problems.push(`${source}: \`${command}\`: ${what}`);
  }

  private check(source: string, command: string): void {
    const [program, second, ...rest] = command.split(/\s+/);
    const fail = (what: string): void => this.problem(source, command, what);
    if (program === 'cd') {
      const target = join(this.cwd, second);
      if (!existsSync(target) || !statSync(target).isDirectory()) fail(`no directory ${second}`);
      else this.cwd = target;
    } else if (program === 'cp') {
      if (!existsSync(join(this.cwd, second))) fail(`no file ${second} in ${this.cwd}`);
    } else if (program === 'curl') {
      this.checkCurl(command, fail);
    } else if (program === 'docker' && second === 'build') {
      this.checkBuild(rest.join(' '), fail);
    } else if (program === 'docker' && second === 'compose') {
      this.checkCompose(rest.join(' '), fail);
    } else if (program === 'docker' && second === 'run') {
      this.checkRun(rest.join(' '), fail);
    } else if (program === 'docker') {
      fail('a docker command this check does not know');
    }
  }

  private checkBuild(args: string, fail: (what: string) => void): void {
    const { options, positional } = words(args, 'build');
    const context = positional[0];
    if (!context || !existsSync(join(this.cwd, context))) return fail(`no build context ${context}`);
    const dockerfile = join(this.cwd, options.get('-f')?.[0] ?? join(context, 'Dockerfile'));
    if (!existsSync(dockerfile)) return fail(`no Dockerfile ${dockerfile}`);
    const stages = parseDockerfile(read(dockerfile)).map(({ name }) => name);
    for (const target of options.get('--target') ?? []) if (!stages.includes(target)) fail(`no stage ${target}`);
  }

  private composeFile(explicit: string | undefined): Compose | undefined {
    const path = explicit ? join(this.cwd, explicit) : COMPOSE_FILES.map((file) => join(this.cwd, file)).find((file) => existsSync(file));
    return path && existsSync(path) ? (parse(read(path), { merge: true }) as Compose) : undefined;
  }

  private checkCompose(args: string, fail: (what: string) => void): void {
    const { options, positional } = words(args, 'compose');
    const compose = this.composeFile(options.get('-f')?.[0] ?? options.get('--file')?.[0]);
    if (!compose) return fail(`no compose file in ${this.cwd}`);
    const [subcommand, ...names] = positional;
    const services = ['run', 'exec'].includes(subcommand) ? names.slice(0, 1) : COMPOSE_SERVICE_LISTS.includes(subcommand) ? names : undefined;
    if (services === undefined) return fail(`unknown compose subcommand ${subcommand}`);
    for (const service of services) if (!(service in compose.services)) fail(`no service ${service}`);
  }

  private checkRun(args: string, fail: (what: string) => void): void {
    const { options, positional } = words(args, 'run');
    const [image, command] = positional;
    if (!this.builtTags.includes(image)) fail(`image ${image} is not the one the README builds (${this.builtTags.join(', ')})`);
    const env = Object.fromEntries((options.get('-e') ?? []).map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
    const app = (command ?? env.APP) as AppName | undefined;
    if (app === undefined) return fail('names no app: neither a command nor APP');
    if (!(APPS as string[]).includes(app) && !TOOL_COMMANDS.includes(app)) return fail(`no app or command ${app}`);
    if (!(app in APP_PORTS)) return;
    // The health check finds the port from PORT, else from APP: named as the command only, PORT must be set.
    if (env.PORT !== undefined && Number(env.PORT) !== APP_PORTS[app]) fail(`PORT ${env.PORT}, not ${app}'s ${APP_PORTS[app]}`);
    if (command !== undefined && env.PORT === undefined && env.APP === undefined) fail(`runs ${app} without PORT or APP: its health check fails`);
    for (const published of options.get('-p') ?? []) {
      if (Number(published.split(':').pop()) !== APP_PORTS[app]) fail(`publishes ${published}, not ${app}'s port`);
    }
  }

  private checkCurl(command: string, fail: (what: string) => void): void {
    const [, port] = /(?:localhost|127\.0\.0\.1):(\d+)\//.exec(command) ?? [];
    const published = Object.values(this.composeFile(undefined)?.services ?? {}).flatMap(({ ports }) => (ports ?? []).map((pair) => pair.split(':')[0]));
    if (port !== undefined && !published.includes(port)) fail(`port ${port} is not published by compose`);
  }
}

interface Block {
  source: string;
  lines: string[];
  cwd: string;
}

/** The ```sh blocks (each typed from the repository root), and each inline `docker compose ...` (from docker/). */
function readmeBlocks(text: string): Block[] {
  const source = 'docker/README.md';
  const blocks = [...text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map(([, body]) => ({
    source,
    lines: body.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#')),
    cwd: ROOT,
  }));
  const inline = [...text.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/`(docker compose [^`]+)`/g)].map(([, line]) => ({ source, lines: [line], cwd: DOCKER }));
  return [...blocks, ...inline];
}

/** The usage lines in a file's comments (`#   <command>`), typed one after the other from the repository root. */
function commentBlock(file: string): Block {
  const lines = [...read(join(DOCKER, file)).matchAll(/^#\s{2,}((?:docker|cd) .*)$/gm)].map(([, line]) => line);
  return { source: `docker/${file}`, lines, cwd: ROOT };
}

function checkAll(): Checked & { blocks: Block[] } {
  const blocks = [...readmeBlocks(read(join(DOCKER, 'README.md'))), commentBlock('Dockerfile'), commentBlock('docker-compose.yml')];
  const builtTags = blocks.flatMap(({ lines }) =>
    lines.flatMap((line) => (/^docker build\b/.test(line) ? (words(line.replace(/^docker build\s+/, ''), 'build').options.get('-t') ?? []) : [])),
  );
  const checker = new CommandChecker([...new Set(builtTags)]);
  for (const block of blocks) checker.runBlock(block);
  return { problems: checker.problems, builtTags: [...new Set(builtTags)], blocks };
}

describe('docker/README.md commands', () => {
  const { problems, builtTags, blocks } = checkAll();

  it('builds the image the compose file and the run examples use', () => {
    const compose = parse(read(join(DOCKER, 'docker-compose.yml'))) as Compose;
    expect(builtTags).toHaveLength(1);
    expect(compose.services.migrate.image).toBe(`\${MESSAGING_IMAGE:-${builtTags[0]}}`);
  });

  it('name files, stages, services, images, apps and ports that exist, from where the reader is', () => {
    expect(problems).toEqual([]);
  });

  it('are found: the build, compose up, the usage comments, a run of the migration', () => {
    const lines = blocks.flatMap((block) => block.lines.map((line) => `${block.source}: ${line}`));
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^docker\/README\.md: docker build -f docker\/Dockerfile /),
        expect.stringMatching(/^docker\/README\.md: docker compose up -d --build$/),
        expect.stringMatching(/^docker\/README\.md: docker run .* migrate\b/),
        expect.stringMatching(/^docker\/Dockerfile: docker build /),
        expect.stringMatching(/^docker\/docker-compose\.yml: docker compose up /),
      ]),
    );
  });
});

// The environment docker compose gives each service of docker/docker-compose.yml: the image's
// ENV, then env_file, then environment, with ${VAR} interpolated from the project's .env the way
// compose does it. Only what the platform's files use is modelled, and anything else is refused.
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

export type Env = Record<string, string>;

/** A .env / env_file: KEY=value lines; `export`, quotes and trailing comments as compose reads them. */
export function parseDotenv(text: string): Env {
  const env: Env = {};
  for (const line of text.split('\n')) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const [, key, raw] = match;
    const quoted = /^(['"])(.*)\1$/.exec(raw);
    env[key] = quoted ? quoted[2] : raw.replace(/\s+#.*$/, '');
  }
  return env;
}

/**
 * Compose's interpolation of one value: $$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default},
 * ${VAR:?error}, ${VAR?error}, ${VAR:+alternative}, ${VAR+alternative}. An unset ${VAR} is empty
 * (compose warns); a failed `?` is collected in `errors`, as compose refuses the whole file.
 */
export function interpolate(value: string, variables: Env, errors: string[]): string {
  const pattern = /\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])((?:[^{}]|\{[^{}]*\})*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;
  return value.replace(pattern, (whole: string, dollar?: string, braced?: string, operator?: string, argument = '', bare?: string) => {
    if (dollar) return '$';
    const name = (braced ?? bare) as string;
    const current = variables[name];
    const set = current !== undefined;
    const nonEmpty = set && current !== '';
    switch (operator) {
      case undefined:
        return current ?? '';
      case ':-':
        return nonEmpty ? current : interpolate(argument, variables, errors);
      case '-':
        return set ? current : interpolate(argument, variables, errors);
      case ':?':
      case '?':
        if (operator === ':?' ? nonEmpty : set) return current;
        errors.push(`${name}: ${argument || 'required variable is missing a value'}`);
        return '';
      case ':+':
        return nonEmpty ? interpolate(argument, variables, errors) : '';
      case '+':
        return set ? interpolate(argument, variables, errors) : '';
      default:
        throw new Error(`unsupported interpolation ${whole}`);
    }
  });
}

/** Every string of a parsed compose file, interpolated. */
function interpolateAll(node: unknown, variables: Env, errors: string[]): unknown {
  if (typeof node === 'string') return interpolate(node, variables, errors);
  if (Array.isArray(node)) return node.map((item) => interpolateAll(item, variables, errors));
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateAll(value, variables, errors)]));
  }
  return node;
}

export interface ComposeService {
  image?: string;
  command?: string[] | string;
  env_file?: string | (string | { path: string; required?: boolean })[];
  environment?: Record<string, string | number | boolean | null> | string[];
}

export interface RenderedCompose {
  services: Record<string, ComposeService>;
  /** What compose would refuse the file for (a ${VAR:?…} without a value). */
  errors: string[];
}

/** The compose file as compose sees it: YAML merge keys applied and every value interpolated. */
export function renderCompose(composeText: string, dotenv: Env): RenderedCompose {
  const errors: string[] = [];
  const model = interpolateAll(parse(composeText, { merge: true }), dotenv, errors) as { services: Record<string, ComposeService> };
  return { services: model.services, errors };
}

/** A service's environment entries: the map form, or the list form `KEY=value` / `KEY`. */
function environmentEntries(environment: ComposeService['environment'], variables: Env): [string, string | undefined][] {
  if (environment === undefined) return [];
  if (Array.isArray(environment)) {
    return environment.map((item) => {
      const at = item.indexOf('=');
      return at < 0 ? [item, variables[item]] : [item.slice(0, at), item.slice(at + 1)];
    });
  }
  // `KEY:` with no value passes the variable from the environment compose runs in.
  return Object.entries(environment).map(([key, value]) => [key, value === null ? variables[key] : String(value)]);
}

/**
 * What a service's container sees: the image's ENV, then its env_files in order, then its
 * environment. readFile reads an env_file by its path relative to the compose file.
 */
export function serviceEnv(
  service: ComposeService,
  options: { imageEnv: Env; dotenv: Env; composeFile: string; readFile: (path: string) => string | undefined },
): { env: Env; errors: string[] } {
  const env: Env = { ...options.imageEnv };
  const errors: string[] = [];
  const files = service.env_file === undefined ? [] : Array.isArray(service.env_file) ? service.env_file : [service.env_file];
  for (const file of files) {
    const { path, required = true } = typeof file === 'string' ? { path: file } : file;
    const text = options.readFile(join(dirname(options.composeFile), path));
    if (text === undefined) {
      if (required) errors.push(`env_file ${path} does not exist`);
      continue;
    }
    for (const [key, value] of Object.entries(parseDotenv(text))) env[key] = interpolate(value, options.dotenv, errors);
  }
  for (const [key, value] of environmentEntries(service.environment, options.dotenv)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return { env, errors };
}

/** The process a service of the platform's image runs: its command's first word, else APP. */
export function composeProcess(service: ComposeService, env: Env): string | undefined {
  const command = typeof service.command === 'string' ? service.command.split(/\s+/) : service.command;
  return command?.[0] ?? env['APP'];
}

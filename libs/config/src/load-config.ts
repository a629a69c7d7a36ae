import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';

/** Thrown when the environment does not satisfy an app's env class; the message names each bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

type EnvClass<T> = new () => T;

/**
 * What the example files (docker/.env.example, k8s/secret.example.yaml, k8s/configmap.yaml) put
 * where the operator must fill in a value. With NODE_ENV=production no variable may keep it.
 */
export const PLACEHOLDER = /^change[-_]?me$/i;

/** The variables each loaded config was given explicitly (not left to the class's default). */
const givenVariables = new WeakMap<object, ReadonlySet<string>>();

/** Whether `name` was set in the environment `config` was loaded from (see RequiredInProduction). */
export function wasGiven(config: object, name: string): boolean {
  return givenVariables.get(config)?.has(name) ?? false;
}

/**
 * The variables an env class reads: every property that carries a class-validator decorator
 * (its own or inherited), optional ones without a default included. A property with a default
 * but no decorator would be neither read nor checked: that is refused here, so a new setting
 * cannot be forgotten by the loader.
 */
export function envVariables(envClass: EnvClass<object>): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(envClass, '', true, false);
  const validated = [...new Set(metadata.map((entry) => entry.propertyName))];
  const unvalidated = Object.keys(new envClass()).filter((name) => !validated.includes(name));
  if (unvalidated.length > 0) {
    throw new Error(
      `${envClass.name}: ${unvalidated.join(', ')} ha${unvalidated.length > 1 ? 've' : 's'} no validation decorator, so the loader would never read it`,
    );
  }
  return validated.sort();
}

/**
 * Builds and validates an app's env class from the environment. Every variable the class declares
 * (see envVariables) is read; unset ones keep the class's defaults (optional ones without a
 * default stay undefined); values are converted to the declared property types.
 */
export function loadConfig<T extends object>(envClass: EnvClass<T>, env: NodeJS.ProcessEnv = process.env): T {
  const provided: Record<string, string> = {};
  for (const name of envVariables(envClass)) {
    const value = env[name];
    if (value !== undefined && value !== '') provided[name] = value;
  }
  const config = plainToInstance(envClass, provided, {
    enableImplicitConversion: true,
    exposeDefaultValues: true,
  });
  givenVariables.set(config, new Set(Object.keys(provided)));
  const errors = validateSync(config, { forbidUnknownValues: false });
  const problems = errors.map((error) => describe(error, provided));
  if ((config as { NODE_ENV?: unknown }).NODE_ENV === 'production') {
    const refused = new Set(errors.map((error) => error.property));
    for (const [name, value] of Object.entries(provided)) {
      if (PLACEHOLDER.test(value.trim()) && !refused.has(name)) {
        problems.push(`${name}=${JSON.stringify(value)}: is the example's placeholder; set the real value when NODE_ENV=production`);
      }
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function describe(error: ValidationError, provided: Record<string, string>): string {
  const reasons = Object.values(error.constraints ?? {}).join(', ');
  const given = provided[error.property];
  return given === undefined ? `${error.property}: ${reasons}` : `${error.property}=${JSON.stringify(given)}: ${reasons}`;
}

import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

/** Thrown when the environment does not satisfy an app's env class; the message names each bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

type EnvClass<T> = new () => T;

/**
 * Builds and validates an app's env class from the environment. Unset variables keep the
 * class's defaults; values are converted to the declared property types.
 */
export function loadConfig<T extends object>(envClass: EnvClass<T>, env: NodeJS.ProcessEnv = process.env): T {
  const declared = Object.keys(new envClass());
  const provided: Record<string, string> = {};
  for (const name of declared) {
    const value = env[name];
    if (value !== undefined && value !== '') provided[name] = value;
  }
  const config = plainToInstance(envClass, provided, {
    enableImplicitConversion: true,
    exposeDefaultValues: true,
  });
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(errors.map((error) => describe(error, provided)));
  return config;
}

function describe(error: ValidationError, provided: Record<string, string>): string {
  const reasons = Object.values(error.constraints ?? {}).join(', ');
  const given = provided[error.property];
  return given === undefined
    ? `${error.property}: ${reasons}`
    : `${error.property}=${JSON.stringify(given)}: ${reasons}`;
}

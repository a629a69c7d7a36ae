import { InvalidArgumentError } from '@mp/accounts';
import { parseArgs } from 'node:util';
import { UsageError } from './usage-error';

export interface OptionSpec {
  /** Options that must be given, each once. */
  required: readonly string[];
  optional?: readonly string[];
  /** Options that may repeat, such as --set key=value. */
  repeated?: readonly string[];
  /** Options that take no value, such as --operator. */
  flags?: readonly string[];
}

export type ParsedOptions = Record<string, string> & { set?: never };

/** Parses `--name value` options strictly: unknown, missing, empty or doubled options are usage errors. */
export function parseOptions(
  args: readonly string[],
  spec: OptionSpec,
): { values: Record<string, string>; lists: Record<string, string[]>; flags: Record<string, boolean> } {
  const names = [...spec.required, ...(spec.optional ?? [])];
  const repeated = spec.repeated ?? [];
  const flagNames = spec.flags ?? [];
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries([
        ...names.map((name) => [name, { type: 'string' as const }]),
        ...repeated.map((name) => [name, { type: 'string' as const, multiple: true }]),
        ...flagNames.map((name) => [name, { type: 'boolean' as const }]),
      ]),
    });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  const values: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  const flags: Record<string, boolean> = Object.fromEntries(flagNames.map((name) => [name, false]));
  for (const [name, value] of Object.entries(parsed.values)) {
    if (Array.isArray(value)) lists[name] = value.map(String);
    else if (typeof value === 'string') values[name] = value;
    else if (typeof value === 'boolean') flags[name] = value;
  }
  for (const name of spec.required) {
    if (values[name] === undefined || values[name].trim() === '') throw new UsageError(`--${name} is required`);
  }
  for (const name of repeated) {
    if (!lists[name] || lists[name].length === 0) throw new UsageError(`at least one --${name} is required`);
  }
  return { values, lists, flags };
}

/** A true|false option's value. */
export function booleanOf(name: string, text: string): boolean {
  if (text === 'true' || text === 'false') return text === 'true';
  throw new InvalidArgumentError(`--${name} must be true or false`);
}

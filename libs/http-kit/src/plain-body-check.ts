import { TransformationType } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';

/** Whether a request body surely passes a DTO class's rules (false: not sure, let class-validator decide). */
export type PlainBodyCheck = (body: unknown) => boolean;

type DtoClass = new () => object;

/** What one ValidationMetadata says of a value: true when it surely passes. */
type Rule = (value: unknown) => boolean;

interface PropertyRules {
  optional: boolean;
  rules: Rule[];
}

interface RuleMetadata {
  type: string;
  name?: string;
  propertyName: string;
  constraints?: unknown[];
  each?: boolean;
  always?: boolean;
  groups?: string[];
  validateIf?: unknown;
}

/** class-transformer's decorator metadata (@Type, @Transform, @Expose, @Exclude), from its storage. */
interface TransformerStorage {
  getExposedMetadatas(target: DtoClass): unknown[];
  getExcludedMetadatas(target: DtoClass): unknown[];
  findTypeMetadata(target: DtoClass, property: string): unknown;
  findTransformMetadatas(target: DtoClass, property: string, type: TransformationType): unknown[];
}

// The storage is not on the package's index.
const transformerStorage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage }).defaultMetadataStorage;

/**
 * The few rules a check is compiled from; a DTO with any other rule (or option: `each`, `always`,
 * groups, a condition) gets no check, and class-validator validates every body of it.
 */
const RULES: Record<string, (constraints: unknown[]) => Rule> = {
  isString: () => (value) => typeof value === 'string',
  // class-validator counts a surrogate pair as one character: a string no longer in UTF-16 units surely fits.
  maxLength:
    ([max]) =>
    (value) =>
      typeof value === 'string' && value.length <= (max as number),
  isNotEmpty: () => (value) => value !== '' && value !== null && value !== undefined,
};

/**
 * A check of request bodies against a DTO whose rules are all simple (strings, optional, a
 * maximum length, not empty, allowed): a body it passes is one the global ValidationPipe would
 * pass and turn into the same instance (the DTO's own properties copied), so the pipe's work
 * (class-transformer, then class-validator looking up and running each rule) can be skipped: it
 * is a large share of the gateway's work on the busiest routes
 * (docs/decisions/0030-validation-fast-path.md). A body it does not pass, or whose
 * values are not strings, numbers, booleans or null, still goes through the pipe, which answers
 * the exact errors. Null when the DTO has a rule it does not know.
 */
export function compilePlainBodyCheck(dto: DtoClass): PlainBodyCheck | null {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false) as RuleMetadata[];
  const properties = new Map<string, PropertyRules>();
  for (const entry of metadata) {
    if (entry.each || entry.always || (entry.groups?.length ?? 0) > 0 || entry.validateIf) return null;
    const property = properties.get(entry.propertyName) ?? { optional: false, rules: [] };
    properties.set(entry.propertyName, property);
    if (entry.type === 'conditionalValidation' && entry.name === 'isOptional') property.optional = true;
    else if (entry.type === 'customValidation' && entry.name !== undefined && RULES[entry.name])
      property.rules.push(RULES[entry.name](entry.constraints ?? []));
    else if (entry.type !== 'whitelistValidation') return null;
  }
  if (properties.size === 0 || !plainToTransformer(dto, [...properties.keys()])) return null;
  const checks = [...properties].map(([name, { optional, rules }]) => ({ name, optional, rules }));
  return (body) => {
    if (!isPlainObject(body)) return false;
    for (const key in body) if (!properties.has(key)) return false;
    for (const { name, optional, rules } of checks) {
      const value = (body as Record<string, unknown>)[name];
      if (!isScalar(value)) return false;
      if (optional && (value === null || value === undefined)) continue;
      for (const rule of rules) if (!rule(value)) return false;
    }
    return true;
  };
}

/** The instance the ValidationPipe (transform: true) makes of a body the check passed. */
export function instanceOfPlainBody<T extends object>(dto: new () => T, body: object): T {
  return Object.assign(new dto(), body);
}

function plainToTransformer(dto: DtoClass, properties: readonly string[]): boolean {
  if (transformerStorage.getExposedMetadatas(dto).length > 0 || transformerStorage.getExcludedMetadatas(dto).length > 0) return false;
  return properties.every(
    (property) =>
      !transformerStorage.findTypeMetadata(dto, property) &&
      transformerStorage.findTransformMetadatas(dto, property, TransformationType.PLAIN_TO_CLASS).length === 0,
  );
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isScalar(value: unknown): boolean {
  return value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

import metadataJson from 'libphonenumber-js/metadata.max.json';

/**
 * libphonenumber-js's numbering plans ('max' metadata, the set `libphonenumber-js/max` parses with),
 * with each plan's patterns compiled once, on first use of its calling code. The regular
 * expressions are built exactly as libphonenumber-js builds them on every call.
 */
export interface CompiledPlan {
  /** `matchesEntirely` of the plan's national number pattern. */
  readonly nationalNumber: RegExp;
  readonly possibleLengths: readonly number[] | undefined;
  /** Unanchored, for `String.prototype.search` as getCountryByNationalNumber uses it. */
  readonly leadingDigits: RegExp | undefined;
  /** `^(?:national prefix for parsing)`, falling back to the national prefix. */
  readonly nationalPrefix: RegExp | undefined;
  readonly nationalPrefixTransformRule: string | undefined;
  readonly hasTypes: boolean;
  /** Every number type (fixed line, mobile, toll free…) possible at a length, as one regex. */
  readonly typesByLength: ReadonlyMap<number, RegExp | null>;
  /** Types without possible lengths of their own nor of the plan: any length. */
  readonly typesAnyLength: RegExp | null;
}

export interface CallingCode {
  readonly code: string;
  /** Countries sharing the code, main one first; null for a non-geographic code (+800, +882…). */
  readonly countries: readonly string[] | null;
  /** The plan selected by the calling code alone: the main country's, or the non-geographic one. */
  readonly mainPlan: CompiledPlan;
  readonly planOf: (country: string) => CompiledPlan;
}

/** Metadata format 4, positional and minified (libphonenumber-js METADATA.md); 0 means absent. */
type RawType = readonly [string, (readonly number[])?] | 0;
type RawPlan = readonly unknown[];
interface RawMetadata {
  version: number;
  country_calling_codes: Record<string, readonly string[]>;
  countries: Record<string, RawPlan>;
  nonGeographic?: Record<string, RawPlan>;
}

const PLAN = {
  nationalNumberPattern: 2,
  possibleLengths: 3,
  nationalPrefix: 5,
  nationalPrefixForParsing: 7,
  nationalPrefixTransformRule: 8,
  leadingDigits: 10,
  types: 11,
} as const;

const metadata = metadataJson as unknown as RawMetadata;
if (metadata.version !== 4) throw new Error(`Unsupported libphonenumber-js metadata version ${metadata.version}`);

function text(raw: RawPlan, index: number): string | undefined {
  const value = raw[index];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function lengths(raw: RawPlan): readonly number[] | undefined {
  const value = raw[PLAN.possibleLengths];
  return Array.isArray(value) ? value : undefined;
}

function anyOf(patterns: readonly string[]): RegExp | null {
  if (patterns.length === 0) return null;
  return new RegExp(`^(?:${patterns.map((pattern) => `(?:${pattern})`).join('|')})$`);
}

/** Groups the type patterns by the lengths `isNumberTypeEqualTo` lets each of them match. */
function compileTypes(types: readonly RawType[], planLengths: readonly number[] | undefined) {
  const byLength = new Map<number, string[]>();
  const anyLength: string[] = [];
  for (const type of types) {
    if (!type || !type[0]) continue;
    const typeLengths = type[1] || planLengths;
    if (!typeLengths) anyLength.push(type[0]);
    for (const length of typeLengths ?? []) byLength.set(length, [...(byLength.get(length) ?? []), type[0]]);
  }
  const typesByLength = new Map<number, RegExp | null>();
  for (const [length, patterns] of byLength) typesByLength.set(length, anyOf([...patterns, ...anyLength]));
  return { typesByLength, typesAnyLength: anyOf(anyLength) };
}

function compilePlan(raw: RawPlan): CompiledPlan {
  const types = (raw[PLAN.types] ?? 0) as readonly RawType[] | 0;
  const nationalPrefix = text(raw, PLAN.nationalPrefixForParsing) ?? text(raw, PLAN.nationalPrefix);
  const leadingDigits = text(raw, PLAN.leadingDigits);
  return {
    nationalNumber: new RegExp(`^(?:${String(raw[PLAN.nationalNumberPattern])})$`),
    possibleLengths: lengths(raw),
    leadingDigits: leadingDigits === undefined ? undefined : new RegExp(leadingDigits),
    nationalPrefix: nationalPrefix === undefined ? undefined : new RegExp(`^(?:${nationalPrefix})`),
    nationalPrefixTransformRule: text(raw, PLAN.nationalPrefixTransformRule),
    hasTypes: Array.isArray(types) && types.length > 0,
    ...compileTypes(types || [], lengths(raw)),
  };
}

const compiledCountries = new Map<string, CompiledPlan>();

function countryPlan(country: string): CompiledPlan {
  let plan = compiledCountries.get(country);
  if (!plan) {
    const raw = metadata.countries[country];
    if (!raw) throw new Error(`Unknown country in libphonenumber-js metadata: ${country}`);
    plan = compilePlan(raw);
    compiledCountries.set(country, plan);
  }
  return plan;
}

/** As `Metadata.getCountryCodesForCallingCode`: a lone three-letter entry ("001") is no country. */
function countriesOf(code: string): readonly string[] | null {
  const countries = metadata.country_calling_codes[code];
  if (!countries || (countries.length === 1 && countries[0].length === 3)) return null;
  return countries;
}

function callingCode(code: string): CallingCode | undefined {
  const countries = countriesOf(code);
  const nonGeographic = countries ? undefined : metadata.nonGeographic?.[code];
  if (!countries && !nonGeographic) return undefined;
  let mainPlan: CompiledPlan | undefined;
  return {
    code,
    countries,
    get mainPlan() {
      mainPlan ??= countries ? countryPlan(countries[0]) : compilePlan(nonGeographic as RawPlan);
      return mainPlan;
    },
    planOf: countryPlan,
  };
}

/**
 * Every calling code, indexed by its numeric value: calling codes never start with 0, so the
 * 1-, 2- and 3-digit codes cannot collide.
 */
export const CALLING_CODES: readonly (CallingCode | undefined)[] = Array.from({ length: 1000 }, (_, value) =>
  value === 0 ? undefined : callingCode(String(value)),
);

import { CALLING_CODES, type CallingCode, type CompiledPlan } from './numbering-plans';
import { e164Candidate, INVALID, type PhoneParse } from './phone-parse';

/**
 * The verdicts of libphonenumber-js (`parsePhoneNumberWithLibrary(input, { allowMissingPlus: true })`),
 * without its cost per number: libphonenumber-js builds its metadata objects and regular
 * expressions anew for every number, this replays its parse and isValid steps on patterns
 * compiled once per calling code (docs/decisions/0004-compiled-numbering-plans.md).
 */
export interface BulkPhoneValidator {
  validate(input: string): PhoneParse;
  validateMany(inputs: readonly string[]): BulkValidation;
}

export interface BulkValidation {
  /** In input order, with the index of each entry. */
  valid: { index: number; e164: string; country: string | null }[];
  /** Indexes of the refused entries, in input order. */
  invalid: number[];
}

const MAX_CALLING_CODE_DIGITS = 3;
const DIGIT_ZERO = 48;

export function createBulkPhoneValidator(): BulkPhoneValidator {
  return { validate: (input) => validatePhoneNumber(input, true), validateMany: validatePhoneNumbers };
}

/** parsePhoneNumber's verdict: a number without `+` is refused unless `allowMissingPlus`. */
export function validatePhoneNumber(input: string, allowMissingPlus: boolean): PhoneParse {
  const candidate = e164Candidate(input, allowMissingPlus);
  if (candidate === null) return INVALID;
  const country = validateCandidate(candidate);
  return country === undefined ? INVALID : { ok: true, e164: candidate, country };
}

function validatePhoneNumbers(inputs: readonly string[]): BulkValidation {
  const result: BulkValidation = { valid: [], invalid: [] };
  for (let index = 0; index < inputs.length; index++) {
    const parsed = validatePhoneNumber(inputs[index], true);
    if (parsed.ok) result.valid.push({ index, e164: parsed.e164, country: parsed.country });
    else result.invalid.push(index);
  }
  return result;
}

/** The country (null when none) of a valid `+digits` candidate; undefined when it is invalid. */
function validateCandidate(candidate: string): string | null | undefined {
  const found = findCallingCode(candidate);
  if (!found) return undefined;
  const nationalNumber = candidate.slice(1 + found.code.length);
  // libphonenumber strips a national prefix even after a calling code; the number it then
  // reports differs from the candidate, which parsePhoneNumber refuses.
  if (stripsNationalPrefix(found, nationalNumber)) return undefined;
  const country = countryOf(found, nationalNumber);
  const plan = country === undefined ? found.mainPlan : found.planOf(country);
  return isValidFor(plan, nationalNumber) ? (country ?? null) : undefined;
}

/** As extractCountryCallingCode: the shortest known code after the `+`, which cannot start with 0. */
function findCallingCode(candidate: string): CallingCode | undefined {
  if (candidate.charCodeAt(1) === DIGIT_ZERO) return undefined;
  let value = 0;
  for (let i = 1; i <= MAX_CALLING_CODE_DIGITS; i++) {
    value = value * 10 + candidate.charCodeAt(i) - DIGIT_ZERO;
    const code = CALLING_CODES[value];
    if (code) return code;
  }
  return undefined;
}

/** As extractNationalNumber, with the numbering plan the calling code alone selects. */
function stripsNationalPrefix(code: CallingCode, number: string): boolean {
  const plan = code.mainPlan;
  if (!plan.nationalPrefix) return false;
  const match = plan.nationalPrefix.exec(number);
  if (!match) return false;
  const lastGroup = match.length - 1;
  const hasCapturedGroups = lastGroup > 0 && Boolean(match[lastGroup]);
  const stripped =
    plan.nationalPrefixTransformRule && hasCapturedGroups
      ? number.replace(plan.nationalPrefix, plan.nationalPrefixTransformRule)
      : number.slice(match[0].length);
  if (stripped === number) return false;
  if (plan.nationalNumber.test(number) && !plan.nationalNumber.test(stripped)) return false;
  if (!plan.possibleLengths) return true;
  const country = countryOf(code, stripped);
  const lengths = country === undefined ? plan.possibleLengths : code.planOf(country).possibleLengths;
  return isPossibleIncompleteLength(stripped.length, lengths);
}

/** As checkNumberLength, where only TOO_SHORT and INVALID_LENGTH count as impossible. */
function isPossibleIncompleteLength(length: number, lengths: readonly number[] | undefined): boolean {
  if (!lengths) return true;
  if (lengths[0] === length) return true;
  if (lengths[0] > length) return false;
  if (lengths[lengths.length - 1] < length) return true;
  return lengths.indexOf(length, 1) >= 0;
}

/** As getCountryByCallingCode: by leading digits, else the first country whose types match. */
function countryOf(code: CallingCode, nationalNumber: string): string | undefined {
  const countries = code.countries;
  if (!countries) return undefined;
  if (countries.length === 1) return countries[0];
  for (const country of countries) {
    const plan = code.planOf(country);
    if (plan.leadingDigits) {
      if (nationalNumber.search(plan.leadingDigits) === 0) return country;
    } else if (hasNumberType(plan, nationalNumber)) {
      return country;
    }
  }
  return undefined;
}

/** As getNumberType(...) !== undefined. */
function hasNumberType(plan: CompiledPlan, nationalNumber: string): boolean {
  if (!plan.hasTypes || !plan.nationalNumber.test(nationalNumber)) return false;
  const types = plan.typesByLength.get(nationalNumber.length) ?? plan.typesAnyLength;
  return types !== null && types.test(nationalNumber);
}

/** As isValidNumber: a plan without types only has its national number pattern to go by. */
function isValidFor(plan: CompiledPlan, nationalNumber: string): boolean {
  return plan.hasTypes ? hasNumberType(plan, nationalNumber) : plan.nationalNumber.test(nationalNumber);
}

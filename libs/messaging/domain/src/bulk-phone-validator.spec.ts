import mobileExamples from 'libphonenumber-js/examples.mobile.json';
import metadataJson from 'libphonenumber-js/metadata.max.json';
import { seededRandom } from '@mp/testing';
import { createBulkPhoneValidator } from './bulk-phone-validator';
import { parsePhoneNumber, parsePhoneNumberWithLibrary, type PhoneParse } from './phone-number';

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const digits = (random: Random, count: number) => Array.from({ length: count }, () => String(Math.floor(random() * 10))).join('');

/** A parsed metadata pattern: alternatives of sequences of (atom, repetitions). */
type Alternatives = Piece[][];
interface Piece {
  atom: string[] | Alternatives;
  min: number;
  max: number;
}

/** Reads the regex subset libphonenumber's patterns use: (?:…), […], \d, digits, |, ?, {n,m}. */
class PatternParser {
  private at = 0;

  constructor(private readonly source: string) {}

  alternatives(): Alternatives {
    const options = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      options.push(this.sequence());
    }
    return options;
  }

  private sequence(): Piece[] {
    const pieces: Piece[] = [];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      pieces.push({ atom: this.atom(), ...this.repeat() });
    }
    return pieces;
  }

  private atom(): string[] | Alternatives {
    const char = this.source[this.at++];
    if (char === '\\') {
      this.at++; // the d of \d, the only escape the patterns use
      return [...'0123456789'];
    }
    if (char === '[') return this.characterClass();
    if (char !== '(') return [char];
    if (this.source.startsWith('?:', this.at)) this.at += 2;
    const inner = this.alternatives();
    this.at++;
    return inner;
  }

  private characterClass(): string[] {
    const chars: string[] = [];
    for (const s = this.source; s[this.at] !== ']'; this.at++) {
      if (s[this.at + 1] === '-' && s[this.at + 2] !== ']') {
        for (let c = s.charCodeAt(this.at); c <= s.charCodeAt(this.at + 2); c++) chars.push(String.fromCharCode(c));
        this.at += 2;
      } else chars.push(s[this.at]);
    }
    this.at++;
    return chars;
  }

  private repeat(): { min: number; max: number } {
    if (this.source[this.at] === '?') {
      this.at++;
      return { min: 0, max: 1 };
    }
    const bounds = /^\{(\d+)(?:,(\d+))?\}/.exec(this.source.slice(this.at));
    if (!bounds) return { min: 1, max: 1 };
    this.at += bounds[0].length;
    return { min: Number(bounds[1]), max: Number(bounds[2] ?? bounds[1]) };
  }
}

function generate(pattern: Alternatives, random: Random): string {
  let out = '';
  for (const piece of pick(random, pattern)) {
    const times = piece.min + Math.floor(random() * (piece.max - piece.min + 1));
    for (let i = 0; i < times; i++) {
      out += typeof piece.atom[0] === 'string' ? pick(random, piece.atom as string[]) : generate(piece.atom as Alternatives, random);
    }
  }
  return out;
}

type RawPlan = readonly unknown[];
const metadata = metadataJson as unknown as {
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, RawPlan>;
  nonGeographic: Record<string, RawPlan>;
};
const allPlans = [...Object.values(metadata.countries), ...Object.values(metadata.nonGeographic)];
const callingCodes = [...Object.keys(metadata.country_calling_codes), ...Object.keys(metadata.nonGeographic)];

/** The national number pattern and every type pattern of a plan. */
function patternsOf(plan: RawPlan): string[] {
  const types = (plan[11] || []) as (readonly [string] | 0)[];
  return [plan[2] as string, ...types.flatMap((type) => (type && type[0] ? [type[0]] : []))];
}

/** Numbers drawn from every pattern of every plan: most valid, some of each type and country. */
function fromPatterns(random: Random, perPattern: number, plans: readonly RawPlan[] = allPlans): string[] {
  return plans.flatMap((plan) =>
    patternsOf(plan).flatMap((source) => {
      const pattern = new PatternParser(source).alternatives();
      return Array.from({ length: perPattern }, () => `+${plan[0] as string}${generate(pattern, random)}`);
    }),
  );
}

function mobileExampleNumbers(): string[] {
  return Object.entries(mobileExamples as Record<string, string>).map(([country, national]) => `+${metadata.countries[country][0] as string}${national}`);
}

/** Random digits after each calling code, 6 to 16 digits in all, with and without `+`. */
function randomDigitStrings(random: Random, perCode: number): string[] {
  return callingCodes.flatMap((code) =>
    Array.from({ length: perCode }, () => {
      const number = code + digits(random, Math.max(0, 6 + Math.floor(random() * 11) - code.length));
      return random() < 0.5 ? number : `+${number}`;
    }),
  );
}

const MUTATIONS: ((number: string, random: Random) => string)[] = [
  (n, r) => {
    const at = 1 + Math.floor(r() * (n.length - 1));
    return n.slice(0, at) + String((Number(n[at]) + 1 + Math.floor(r() * 9)) % 10) + n.slice(at + 1);
  },
  (n, r) => ((at) => n.slice(0, at) + n.slice(at + 1))(1 + Math.floor(r() * (n.length - 1))),
  (n, r) => ((at) => n.slice(0, at) + digits(r, 1) + n.slice(at))(1 + Math.floor(r() * n.length)),
  (n) => n + '0',
  (n) => `+0${n.slice(1)}`,
  (n) => n.slice(1),
  (n) => `0${n.slice(1)}`,
  (n, r) => ((at) => `${n.slice(0, at)} ${n.slice(at)}`)(1 + Math.floor(r() * (n.length - 1))),
  (n, r) => ((at) => `${n.slice(0, at)}a${n.slice(at + 1)}`)(1 + Math.floor(r() * (n.length - 1))),
  (n) => ` \t${n}\n `,
  (n) => ` ${n.slice(1)} `,
  (n) => `+${n}`,
  (n) => n.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))),
];

function mutations(random: Random, numbers: readonly string[], perNumber: number): string[] {
  return numbers.flatMap((number) => Array.from({ length: perNumber }, () => pick(random, MUTATIONS)(number, random)));
}

const expected = (input: string): PhoneParse => parsePhoneNumberWithLibrary(input, { allowMissingPlus: true });

function mismatches(inputs: readonly string[]) {
  const validator = createBulkPhoneValidator();
  return inputs
    .map((input) => ({ input, expected: expected(input), actual: validator.validate(input) }))
    .filter(({ expected: e, actual: a }) => JSON.stringify(e) !== JSON.stringify(a))
    .slice(0, 20);
}

const validOnes = (inputs: readonly string[]) => inputs.filter((input) => expected(input).ok);

describe('createBulkPhoneValidator', () => {
  const random = seededRandom(20240611);
  const examples = mobileExampleNumbers();
  const patterned = fromPatterns(random, 4);
  const valid = [...validOnes(examples), ...validOnes(patterned)];

  it('is what parsePhoneNumber answers, which without allowMissingPlus refuses a number without + as the library does', () => {
    const inputs = [...examples, ...examples.map((number) => number.slice(1)), ...mutations(random, valid.slice(0, 2000), 1)];
    const { validate } = createBulkPhoneValidator();
    const differing = inputs.filter(
      (input) =>
        JSON.stringify(parsePhoneNumber(input, { allowMissingPlus: true })) !== JSON.stringify(validate(input)) ||
        JSON.stringify(parsePhoneNumber(input)) !== JSON.stringify(parsePhoneNumberWithLibrary(input)),
    );
    expect(inputs.filter((input) => !input.startsWith('+') && validate(input).ok).length).toBeGreaterThan(200);
    expect(differing.slice(0, 20)).toEqual([]);
  });

  it('agrees with libphonenumber-js on every mobile example, with and without +', () => {
    expect(validOnes(examples).length).toBeGreaterThan(200);
    expect(mismatches([...examples, ...examples.map((number) => number.slice(1))])).toEqual([]);
  });

  it('agrees on numbers drawn from every type pattern of every numbering plan', () => {
    expect(valid.length).toBeGreaterThan(3000);
    expect(mismatches(patterned)).toEqual([]);
  });

  it('agrees on numbers of the countries that share a calling code (+1, +7, +44…)', () => {
    const shared = Object.values(metadata.country_calling_codes).filter((countries) => countries.length > 1);
    const inputs = fromPatterns(
      random,
      30,
      shared.flat().map((country) => metadata.countries[country]),
    );
    expect(mismatches([...inputs, ...mutations(random, inputs, 1)])).toEqual([]);
  });

  it('agrees on random digit strings after every calling code', () => {
    const inputs = [...randomDigitStrings(random, 40), ...Array.from({ length: 2000 }, () => digits(random, 16))];
    expect(inputs.length).toBeGreaterThan(10_000);
    expect(mismatches(inputs)).toEqual([]);
  });

  it('agrees on mutations of valid numbers', () => {
    const inputs = [...mutations(random, valid, 3), '', ' ', '\t\n', '+', '++', 'abc', '+1', '+0123456789'];
    expect(inputs.length).toBeGreaterThan(10_000);
    expect(mismatches(inputs)).toEqual([]);
  });

  it('names the country of numbers whose calling code is shared, and none for non-geographic ones', () => {
    const { validate } = createBulkPhoneValidator();
    expect(validate('+447911123456')).toEqual({ ok: true, e164: '+447911123456', country: 'GG' });
    expect(validate('447400123456')).toEqual({ ok: true, e164: '+447400123456', country: 'GB' });
    expect(validate('+80012345678')).toEqual({ ok: true, e164: '+80012345678', country: null });
    expect(validate('+4407911123456')).toMatchObject({ ok: false });
  });

  it('splits a list into valid entries and indexes of invalid ones', () => {
    const { validateMany } = createBulkPhoneValidator();
    expect(validateMany(['+33612345678', 'nope', ' 14155552671 ', '+4407911123456'])).toEqual({
      valid: [
        { index: 0, e164: '+33612345678', country: 'FR' },
        { index: 2, e164: '+14155552671', country: 'US' },
      ],
      invalid: [1, 3],
    });
  });

  it('validates 100,000 numbers (time printed, not asserted)', () => {
    const plans = ['FR', 'GB', 'US', 'DE', 'IN', 'BR'].map((country) => metadata.countries[country]);
    const pool = fromPatterns(seededRandom(7), 400, plans);
    const inputs = Array.from({ length: 100_000 }, (_, i) => (i % 2 ? pool[i % pool.length] : pool[i % pool.length].slice(1)));
    const { validateMany } = createBulkPhoneValidator();
    const timings = [0, 1, 2].map(() => {
      const start = process.hrtime.bigint();
      validateMany(inputs);
      return Number(process.hrtime.bigint() - start) / 1e6;
    });
    const { valid: accepted } = validateMany(inputs);
    console.log(`bulk-phone-validator: 100k numbers (${accepted.length} valid) in ${timings.map((ms) => ms.toFixed(0)).join(' / ')} ms`);
    expect(accepted.length).toBeGreaterThan(0);
  });
});

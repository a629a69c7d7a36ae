import { formatMoney } from './money';
import { parsePriceRule, PriceRuleError, type PriceRule } from './pricing';

/** The columns of the price table as CSV, in the order the export writes them. */
export const PRICE_CSV_COLUMNS = ['prefix', 'route', 'price'] as const;
type PriceColumn = (typeof PRICE_CSV_COLUMNS)[number];

/** More rows than any price table has: a file past it is refused rather than read. */
export const MAX_PRICE_CSV_ROWS = 10_000;

/** A CSV the import refuses; `line` is the 1-based line of the file that is wrong (0: the file as a whole). */
export class PriceCsvError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(line > 0 ? `line ${line}: ${reason}` : reason);
    this.name = 'PriceCsvError';
  }
}

/** The price table as CSV (RFC 4180, CRLF): a header, then one row per rule with the price's 4 decimals. */
export function formatPriceCsv(rules: readonly PriceRule[]): string {
  const rows = rules.map((rule) => `${rule.prefix},${rule.route},${formatMoney(rule.price)}`);
  return [PRICE_CSV_COLUMNS.join(','), ...rows].map((line) => `${line}\r\n`).join('');
}

/**
 * Reads a price table from CSV: a header naming prefix, route and price (any order, any case),
 * then one rule a line; blank lines are skipped. Every row is checked before any is used, and the
 * first wrong one throws a PriceCsvError naming its line. A prefix a spreadsheet saved without
 * its "+" (44) or with a leading `'` is read as +44; a (prefix, route) given twice is refused.
 */
export function parsePriceCsv(text: string): PriceRule[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const rows = lines.map((line, index) => ({ number: index + 1, line })).filter(({ line }) => line.trim() !== '');
  if (rows.length === 0) throw new PriceCsvError(0, 'the file is empty: its first line must be the header prefix,route,price');
  if (rows.length - 1 > MAX_PRICE_CSV_ROWS) throw new PriceCsvError(0, `at most ${MAX_PRICE_CSV_ROWS} rows a file`);
  const [header, ...body] = rows;
  const columns = headerColumns(splitCsvLine(header.line, header.number), header.number);
  if (body.length === 0) throw new PriceCsvError(0, 'the file has a header but no prices');
  const seen = new Map<string, number>();
  return body.map(({ number, line }) => {
    const fields = splitCsvLine(line, number);
    if (fields.length !== PRICE_CSV_COLUMNS.length) throw new PriceCsvError(number, `expected 3 fields (prefix,route,price), found ${fields.length}`);
    const value = (column: PriceColumn) => fields[columns[column]].trim();
    const rule = ruleOf({ prefix: spreadsheetPrefix(value('prefix')), route: value('route'), price: value('price') }, number);
    const key = `${rule.prefix} ${rule.route}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new PriceCsvError(number, `${rule.prefix} ${rule.route} is already priced on line ${earlier}`);
    seen.set(key, number);
    return rule;
  });
}

function headerColumns(fields: string[], line: number): Record<PriceColumn, number> {
  const names = fields.map((field) => field.trim().toLowerCase());
  const columns = {} as Record<PriceColumn, number>;
  for (const column of PRICE_CSV_COLUMNS) {
    const index = names.indexOf(column);
    if (index < 0 || names.length !== PRICE_CSV_COLUMNS.length) {
      throw new PriceCsvError(line, `the header must name the columns prefix, route and price, found "${fields.join(',')}"`);
    }
    columns[column] = index;
  }
  return columns;
}

function ruleOf(input: { prefix: string; route: string; price: string }, line: number): PriceRule {
  try {
    return parsePriceRule(input);
  } catch (error) {
    if (error instanceof PriceRuleError) throw new PriceCsvError(line, error.message);
    throw error;
  }
}

/** "44" and "'+44" (as a spreadsheet may save a prefix) are "+44"; anything else is left to parsePriceRule. */
function spreadsheetPrefix(prefix: string): string {
  const unquoted = prefix.startsWith("'") ? prefix.slice(1) : prefix;
  return /^\d{1,15}$/.test(unquoted) ? `+${unquoted}` : unquoted;
}

/** One CSV line's fields: commas separate, a field in double quotes may hold commas and doubled quotes. */
export function splitCsvLine(line: string, lineNumber: number): string[] {
  const fields: string[] = [];
  let position = 0;
  for (;;) {
    if (line[position] === '"') {
      let value = '';
      let cursor = position + 1;
      for (;;) {
        const quote = line.indexOf('"', cursor);
        if (quote < 0) throw new PriceCsvError(lineNumber, 'a quoted field is not closed');
        value += line.slice(cursor, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          cursor = quote + 2;
          continue;
        }
        position = quote + 1;
        break;
      }
      fields.push(value);
      if (position < line.length && line[position] !== ',') throw new PriceCsvError(lineNumber, 'text after a quoted field');
    } else {
      const comma = line.indexOf(',', position);
      const end = comma < 0 ? line.length : comma;
      fields.push(line.slice(position, end));
      position = end;
    }
    if (position >= line.length) return fields;
    position += 1; // the comma
    if (position === line.length) {
      fields.push('');
      return fields;
    }
  }
}

/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF, a field quoted (and its
 * quotes doubled) when it holds a comma, a quote, CR or LF, or starts or ends with a space.
 */
export type CsvField = string | null;

/** Characters a spreadsheet reads as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^ | $/;

/** One field: null is empty. */
export function csvField(value: CsvField): string {
  if (value === null) return '';
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A field of free text (a reference or description someone typed): one that starts like a
 * formula (`=`, `+`, `-`, `@`, tab, CR) is prefixed with `'`, so a spreadsheet shows it instead of
 * running it (OWASP's advice on CSV injection). Never for numbers, whose `-` is their sign.
 */
export function csvText(value: string | null): CsvField {
  return value !== null && FORMULA_START.test(value) ? `'${value}` : value;
}

/** One record, with its CRLF. */
export function csvRecord(fields: readonly CsvField[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/**
 * `text` as an SQL string literal, exactly as pg's escapeLiteral writes it (a quote doubled; with
 * a backslash, every backslash doubled and the literal written E'…'), but made by two replaces
 * instead of a string grown one character at a time: statements sent with their values as
 * literals (opened-transaction.ts) carry every value of a group's rows, and pg's loop made much of
 * what the gateway allocated (docs/decisions/0027-sql-literal-quoting.md; docs/bypasses.md #1).
 */
export function quoteLiteral(text: string): string {
  const quotesDoubled = text.replace(/'/g, "''");
  return text.includes('\\') ? ` E'${quotesDoubled.replace(/\\/g, '\\\\')}'` : `'${quotesDoubled}'`;
}

import { empty, join, raw, Sql } from 'sql-template-tag';

export { empty, join, raw, Sql };

/**
 * A statement, or a fragment of one, and its parameter values: `text` numbers the parameters
 * $1, $2… in the order they appear, and a fragment put inside another is numbered in its place
 * there, so no fragment needs to know where its parameters start. Made by sql-template-tag, whose
 * `{ text, values }` node-postgres takes as a query. The same template with the same fragments
 * always makes the same text, so a statement prepared by name (queryPrepared, PreparedOpening) is
 * prepared once per connection; put values in as parameters, never in the text (`raw` is for
 * fixed SQL such as a type name).
 */
export function sql(strings: readonly string[], ...values: readonly unknown[]): Sql {
  return new Sql(strings, values);
}

/**
 * `unnest($1::type1[], $2::type2[], …)` of these columns, one array of values and the type of its
 * elements each, for an INSERT … SELECT or a join of many rows in one statement.
 */
export function unnest(columns: readonly (readonly [values: readonly unknown[], type: string])[]): Sql {
  return join(
    columns.map(([values, type]) => sql`${values}::${raw(type)}[]`),
    ', ',
    'unnest(',
    ')',
  );
}

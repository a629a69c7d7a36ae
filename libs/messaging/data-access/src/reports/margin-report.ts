import { parseMoney } from '@mp/billing-domain';
import type { DataSource } from 'typeorm';
import { COUNTRY_PREFIX_SQL, countryOfNumber } from '../console/message-spend';
import { marginReport, MarginReportError, MARGIN_MAX_DAYS, type MarginDimension, type MarginKey, type MarginReport } from './margins';

export interface MarginQuery {
  /** UTC days [from, before), as marginRange gives them. */
  range: { from: Date; before: Date };
  by: MarginDimension[];
  /** Only the parts this carrier took (its name, any case); null: every part. */
  carrier: string | null;
}

interface GroupRow {
  day: string | null;
  prefix: string | null;
  /** A number of the group's prefix: the group's country is this number's. */
  sample: string | null;
  carrier: string | null;
  parts: string;
  charged: string;
  refunded: string;
  cost: string;
  uncosted_parts: string;
  uncosted_charged: string;
  timed_out_parts: string;
}

/**
 * Every part of the messages accepted in the range, with its price, its share of its message's
 * refund and its carrier cost. A message records its refund as one amount: it is given to the
 * parts that never reached a carrier first (failed, cancelled: what refunds are for), a part's
 * price at most each, so the shares add up to the message's refund exactly. A part no carrier took
 * costs nothing; one that a carrier took costs the carrier_cost recorded with it, unknown (null)
 * when its route had no cost.
 *
 * Then, for each carrier a part's submit timed out on (`timed_out_carriers`, each carrier once a
 * part), a row of that carrier that is not a part it took (`taken` false): it counts in
 * `timed_out_parts` and nowhere else, its cost not being stored. The part may since have been
 * taken by another carrier, be pending or have failed; a carrier that took the part in the end
 * (after its own timeout, on a later attempt) is not counted as timed out on it.
 */
const PARTS = `
  SELECT m.created_at, m.recipient, p.carrier, true AS taken, m.price_per_part AS price,
    least(m.price_per_part, greatest(0, m.refunded - m.price_per_part
      * (row_number() OVER (PARTITION BY m.id ORDER BY p.status IN ('failed', 'cancelled') DESC, p.part_index) - 1))) AS refund,
    CASE WHEN p.status IN ('failed', 'cancelled') THEN 0 ELSE p.carrier_cost END AS cost
  FROM messages m JOIN message_parts p ON p.message_id = m.id
  WHERE m.created_at >= $1 AND m.created_at < $2
  UNION ALL
  SELECT m.created_at, m.recipient, t.carrier, false, 0, 0, 0
  FROM messages m JOIN message_parts p ON p.message_id = m.id
    CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.timed_out_carriers)) AS t(carrier)
  WHERE m.created_at >= $1 AND m.created_at < $2 AND p.timed_out_carriers IS NOT NULL AND t.carrier IS DISTINCT FROM p.carrier`;

/**
 * What the platform charged for the parts of the messages accepted in the range, what the
 * carriers that took them charge, and the margin, by the dimensions asked for, summed exactly by
 * PostgreSQL (numeric) and here (Money). Every company's messages count. Countries come from the
 * recipient's numbering plan as in the console's spend (COUNTRY_PREFIX_SQL). Groups with neither
 * parts nor timed-out parts are not listed.
 */
export async function readMarginReport(db: DataSource, query: MarginQuery): Promise<MarginReport> {
  const { range, by, carrier } = query;
  if (range.before.getTime() - range.from.getTime() > MARGIN_MAX_DAYS * 86_400_000)
    throw new MarginReportError(`the range must be at most ${MARGIN_MAX_DAYS} days`);
  if (by.length === 0) throw new MarginReportError('give at least one of day, country, carrier');
  const has = (dimension: MarginDimension) => by.includes(dimension);
  const rows: GroupRow[] = await db.query(
    `SELECT ${has('day') ? `to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')` : 'NULL::text'} AS day,
       ${has('country') ? COUNTRY_PREFIX_SQL : 'NULL::text'} AS prefix, ${has('country') ? 'min(m.recipient)' : 'NULL::text'} AS sample,
       ${has('carrier') ? 'm.carrier' : 'NULL::text'} AS carrier,
       count(*) FILTER (WHERE m.taken)::text AS parts, sum(m.price)::text AS charged, sum(m.refund)::text AS refunded,
       coalesce(sum(m.cost), 0)::text AS cost, count(*) FILTER (WHERE m.cost IS NULL)::text AS uncosted_parts,
       coalesce(sum(m.price - m.refund) FILTER (WHERE m.cost IS NULL), 0)::text AS uncosted_charged,
       count(*) FILTER (WHERE NOT m.taken)::text AS timed_out_parts
     FROM (${PARTS}) m
     WHERE $3::text IS NULL OR lower(m.carrier) = lower($3::text)
     GROUP BY 1, 2, 4`,
    [range.from.toISOString(), range.before.toISOString(), carrier],
  );
  return marginReport(
    by,
    rows.map((row) => ({ key: keyOf(row, has), counts: countsOf(row) })),
  );
}

function keyOf(row: GroupRow, has: (dimension: MarginDimension) => boolean): MarginKey {
  return {
    ...(has('day') ? { day: row.day ?? undefined } : {}),
    ...(has('country') ? { country: row.sample === null ? null : countryOfNumber(row.sample) } : {}),
    ...(has('carrier') ? { carrier: row.carrier } : {}),
  };
}

function countsOf(row: GroupRow) {
  return {
    parts: Number(row.parts),
    charged: parseMoney(row.charged),
    refunded: parseMoney(row.refunded),
    cost: parseMoney(row.cost),
    uncostedParts: Number(row.uncosted_parts),
    uncostedCharged: parseMoney(row.uncosted_charged),
    timedOutParts: Number(row.timed_out_parts),
  };
}

/** The operators' margin report, platform-wide, for injection. */
export class MarginReports {
  constructor(private readonly db: DataSource) {}

  read(query: MarginQuery): Promise<MarginReport> {
    return readMarginReport(this.db, query);
  }
}

import { InvalidArgumentError } from '@mp/accounts';
import { marginRange, MarginReportError, MarginReports, marginReportCsv, marginReportJson, parseMarginDimensions, type MarginDimension } from '@mp/messaging';
import { parseOptions } from './arguments';
import type { Command } from './commands';
import { TextOutput } from './text-output';

const FORMATS = ['json', 'csv'];

function dimensionsOf(text: string | undefined): MarginDimension[] {
  const by = parseMarginDimensions(text ?? 'day,country,carrier');
  if (by === null) throw new InvalidArgumentError('--by must be day, country and/or carrier, comma-separated (e.g. day,country,carrier)');
  return by;
}

/** A bad date or range is a refused value (exit 1), as the store's other refusals. */
function rangeOf(from: string, to: string): { from: Date; before: Date } {
  try {
    return marginRange(from, to);
  } catch (error) {
    if (error instanceof MarginReportError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

/** The operators' reports over every company's traffic. */
export const REPORT_COMMANDS: Record<string, Command> = {
  'report:margins': {
    summary:
      'price charged (net of refunds), carrier cost and margin of the parts of the messages accepted from --from to --to (UTC days, both included, at most 366), by day, country and/or carrier, with the total; parts whose carrier cost is unknown are counted apart and left out of the margin, and the line of each carrier counts the parts that timed out on it before another carrier took them (timed_out_parts: a possible second charge, its cost not recorded)',
    usage: 'report:margins --from YYYY-MM-DD --to YYYY-MM-DD [--by day|country|carrier|day,country,carrier] [--carrier N] [--format json|csv]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['from', 'to'], optional: ['by', 'carrier', 'format'] });
      const format = values.format ?? 'json';
      if (!FORMATS.includes(format)) throw new InvalidArgumentError('--format must be json or csv');
      const range = rangeOf(values.from, values.to);
      const report = await new MarginReports(await context.database()).read({ range, by: dimensionsOf(values.by), carrier: values.carrier ?? null });
      return format === 'csv' ? new TextOutput(marginReportCsv(report)) : marginReportJson(report, { from: values.from, to: values.to });
    },
  },
};

import { InvalidArgumentError } from '@mp/accounts';
import { INBOUND_MAX_LIMIT, InboundFilterError, InboundViews, type InboundFilter } from '@mp/messaging';
import { InvalidCursorError } from '@mp/persistence';
import { parseOptions } from './arguments';
import type { Command } from './commands';
import { UsageError } from './usage-error';

const DEFAULT_LIMIT = 50;
/** A number as a carrier may give it: digits, `+` optional (a long number in E.164, or a short code). */
const NUMBER = /^\+?[0-9]{3,15}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function numberOf(name: string, text: string | undefined): string | null {
  if (text === undefined) return null;
  if (!NUMBER.test(text.trim())) throw new InvalidArgumentError(`--${name} must be a number, e.g. +447400900123 or a short code 76543 (got "${text}")`);
  return text.trim();
}

function limitOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LIMIT;
  const limit = Number(text);
  if (!/^[0-9]+$/.test(text) || limit < 1 || limit > INBOUND_MAX_LIMIT)
    throw new InvalidArgumentError(`--limit must be an integer from 1 to ${INBOUND_MAX_LIMIT}`);
  return limit;
}

/** Messages handsets sent to the platform's numbers (inbound_messages), as the operator sees them. */
export const INBOUND_COMMANDS: Record<string, Command> = {
  'inbound:list': {
    summary:
      'list inbound messages newest first, a page at a time: those to numbers assigned to no company when they came (--unassigned), or those of a company; --to/--from match a number with or without its +',
    usage: 'inbound:list (--unassigned | --company ID) [--to NUMBER] [--from NUMBER] [--limit N] [--cursor C]',
    run: async (args, context) => {
      const { values, flags } = parseOptions(args, { required: [], optional: ['company', 'to', 'from', 'limit', 'cursor'], flags: ['unassigned'] });
      if (flags.unassigned === (values.company !== undefined)) throw new UsageError('give either --unassigned or --company ID');
      const filter: InboundFilter = { from: numberOf('from', values.from), to: numberOf('to', values.to), since: null, before: null };
      if (values.company !== undefined && !UUID.test(values.company))
        throw new InvalidArgumentError(`--company must be a company id (got "${values.company}")`);
      const page = { limit: limitOf(values.limit), cursor: values.cursor ?? null };
      const views = new InboundViews(await context.database());
      try {
        return values.company === undefined ? await views.listUnassigned(filter, page) : await views.list(values.company, filter, page);
      } catch (error) {
        if (error instanceof InboundFilterError || error instanceof InvalidCursorError) throw new InvalidArgumentError(error.message);
        throw error;
      }
    },
  },
};

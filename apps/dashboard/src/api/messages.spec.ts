import { messageLogPollInterval, type MessageLogItem, type MessageLogPage, type MessageStatus } from './messages';

const page = (...statuses: MessageStatus[]): MessageLogPage => ({
  items: statuses.map((status, i) => ({ message_id: `m${i}`, status }) as MessageLogItem),
  next_cursor: null,
});

describe('reading the message log again', () => {
  it('polls while a shown message can still change state, on any loaded page', () => {
    expect(messageLogPollInterval([page('delivered'), page('failed', 'sent')])).toBeGreaterThan(0);
    expect(messageLogPollInterval([page('queued')])).toBeGreaterThan(0);
    expect(messageLogPollInterval([page('scheduled')])).toBeGreaterThan(0);
  });

  it('stops once every shown message is final, or nothing is loaded', () => {
    expect(messageLogPollInterval([page('delivered', 'undelivered', 'expired', 'rejected', 'failed', 'cancelled')])).toBe(false);
    expect(messageLogPollInterval([page()])).toBe(false);
    expect(messageLogPollInterval(undefined)).toBe(false);
  });
});

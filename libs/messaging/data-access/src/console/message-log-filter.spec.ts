import { messageLogFilterError, messageSearch, NO_MESSAGE_FILTER, type MessageLogFilter } from './message-log-filter';

const ID = '019a8f0e-7c3d-7a11-9b2e-3f4a5b6c7d8e';
const none = { messageId: null, number: null, reference: null };

describe('the message log Search field', () => {
  it('reads a uuid as a message id, in lower case', () => {
    expect(messageSearch(` ${ID.toUpperCase()} `)).toEqual({ ...none, messageId: ID });
  });

  it('reads digits as the first digits of a number, dropping what people type around them', () => {
    expect(messageSearch('+447911123456')).toEqual({ ...none, number: { value: '+447911123456', match: 'prefix' } });
    expect(messageSearch('44 7911-123.4')).toEqual({ ...none, number: { value: '+4479111234', match: 'prefix' } });
    expect(messageSearch('(44) 79')).toEqual({ ...none, number: { value: '+4479', match: 'prefix' } });
  });

  it('reads anything else, or too many digits for a number, as a reference', () => {
    expect(messageSearch('order-17')).toEqual({ ...none, reference: 'order-17' });
    expect(messageSearch('+44abc')).toEqual({ ...none, reference: '+44abc' });
    expect(messageSearch('1234567890123456')).toEqual({ ...none, reference: '1234567890123456' });
    expect(messageSearch('r'.repeat(300)).reference).toHaveLength(200);
  });

  it('reads nothing from empty text', () => {
    expect(messageSearch('   ')).toEqual(none);
  });
});

describe('message log filters', () => {
  const filter = (overrides: Partial<MessageLogFilter>): MessageLogFilter => ({ ...NO_MESSAGE_FILTER, ...overrides });

  it('accepts a filter that can be run', () => {
    expect(messageLogFilterError(NO_MESSAGE_FILTER)).toBeNull();
    expect(
      messageLogFilterError(filter({ number: { value: '+4', match: 'prefix' }, statuses: ['delivered', 'failed'], from: new Date(0), before: new Date(1) })),
    ).toBeNull();
  });

  it('names what is wrong', () => {
    expect(messageLogFilterError(filter({ number: { value: '4479', match: 'prefix' } }))).toBe('number must be + then 1 to 15 digits');
    expect(messageLogFilterError(filter({ number: { value: '+4479%', match: 'prefix' } }))).toBe('number must be + then 1 to 15 digits');
    expect(messageLogFilterError(filter({ statuses: ['lost' as never] }))).toMatch(/^status must be one of scheduled, queued, sent, delivered/);
    expect(messageLogFilterError(filter({ from: new Date(5), before: new Date(5) }))).toBe('from must be before to');
    expect(messageLogFilterError(filter({ from: new Date('nope') }))).toBe('dates must be ISO 8601 timestamps');
  });
});

import { attemptResponse, canResend, deliveryFilterToSearch, lastResponse, overlapConsequence, parseDeliveryFilter } from './webhook-rules';

describe('the Webhooks page rules', () => {
  it('reads the status filter from the URL, anything unknown as all, and writes all as no parameter', () => {
    expect(parseDeliveryFilter('dead')).toBe('dead');
    expect(parseDeliveryFilter('pending')).toBe('pending');
    expect(parseDeliveryFilter('lost')).toBe('all');
    expect(parseDeliveryFilter(undefined)).toBe('all');
    expect(parseDeliveryFilter(['dead'])).toBe('all');
    expect(deliveryFilterToSearch('all')).toEqual({});
    expect(deliveryFilterToSearch('dead')).toEqual({ status: 'dead' });
  });

  it('offers a resend only for a delivery that is delivered or dead', () => {
    expect(canResend({ status: 'dead' })).toBe(true);
    expect(canResend({ status: 'delivered' })).toBe(true);
    expect(canResend({ status: 'pending' })).toBe(false);
  });

  it('words an attempt by its response code, or why there was none', () => {
    expect(attemptResponse({ status_code: 500, error: 'HTTP 500' })).toBe('HTTP 500');
    expect(attemptResponse({ status_code: null, error: 'timeout after 10000 ms' })).toBe('No answer: timeout after 10000 ms');
    expect(attemptResponse({ status_code: null, error: null })).toBe('No answer');
    expect(lastResponse({ attempts: [] })).toBe('Not tried yet');
    expect(lastResponse({ attempts: [{ status_code: 500, error: null } as never, { status_code: 204, error: null } as never] })).toBe('HTTP 204');
  });

  it('says what the overlap means before a rotation', () => {
    expect(overlapConsequence(86_400)).toMatch(/^For the next 1 day, every webhook carries two signatures/);
    expect(overlapConsequence(7 * 86_400)).toMatch(/^For the next 7 days/);
    expect(overlapConsequence(3600)).toMatch(/^For the next 1 hour,/);
    expect(overlapConsequence(0)).toMatch(/new secret only/);
  });
});

import { parseCarrierHealth } from './carrier-health-status';

const counters = { submits: 1, throttled: 0, errors: 0, delivered: 1, undelivered: 0, timedReceipts: 1, receiptLatencyMsTotal: 40 };
const good = { dispatcher: 'a:1', carrier: 'uk', windowMs: 300_000, counters, degraded: false, reason: 'delivering' };

describe('parseCarrierHealth', () => {
  it('keeps the entries of the right shape and skips the rest', () => {
    const text = JSON.stringify([
      good,
      { ...good, carrier: 7 },
      { ...good, windowMs: 0 },
      { ...good, counters: { ...counters, timedReceipts: undefined } },
      { ...good, counters: { ...counters, submits: -1 } },
      null,
    ]);
    expect(parseCarrierHealth(text)).toEqual([good]);
  });

  it('answers nothing for a missing key, text that is not JSON, or JSON that is not a list', () => {
    expect(parseCarrierHealth(null)).toEqual([]);
    expect(parseCarrierHealth('{')).toEqual([]);
    expect(parseCarrierHealth('{"a":1}')).toEqual([]);
  });
});

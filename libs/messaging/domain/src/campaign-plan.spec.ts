import { planCampaign, type CampaignPlanOptions } from './campaign-plan';
import { parsePhoneNumber } from './phone-number';

describe('planCampaign', () => {
  const startAt = new Date('2026-11-22T10:00:00Z');
  const options = (overrides: Partial<CampaignPlanOptions> = {}): CampaignPlanOptions => ({
    batchSize: 2,
    delayBetweenBatchesS: 0,
    startAt,
    validate: (input) => parsePhoneNumber(input, { allowMissingPlus: true }),
    price: (e164) => (e164.startsWith('+44') ? 350n : 100n),
    ...overrides,
  });

  it('mode 1: lists invalid numbers as given, sends duplicates once, prices each recipient per part, cuts batches', () => {
    const plan = planCampaign(
      { mode: 1, recipients: ['+33612345678', ' 12ab ', '33612345678', '+447400123456', '+14155552671'], message: 'x'.repeat(161) },
      options(),
    );
    expect(plan).toMatchObject({ total: 5, accepted: 3, duplicates: 1, failedNumbers: [{ number: '12ab', error: 'Invalid phone number format' }] });
    expect(plan.batches.map((b) => b.recipients)).toEqual([['+33612345678', '+447400123456'], ['+14155552671']]);
    expect(plan.batches[0]).toMatchObject({ parts: [2, 2], prices: [100n, 350n], cost: 900n, bodies: null });
    expect(plan.totalCost).toBe(900n + 200n);
  });

  it('spaces batches by the delay from the start', () => {
    const plan = planCampaign(
      { mode: 1, recipients: ['+33612345678', '+33612345679', '+33612345670'], message: 'Hi' },
      options({ batchSize: 1, delayBetweenBatchesS: 60 }),
    );
    expect(plan.batches.map((b) => b.scheduledAt.toISOString())).toEqual(['2026-11-22T10:00:00.000Z', '2026-11-22T10:01:00.000Z', '2026-11-22T10:02:00.000Z']);
  });

  it('mode 2: each message its text, reference and sender; bad entries refused with why; exact duplicates once', () => {
    const plan = planCampaign(
      {
        mode: 2,
        messages: [
          { to: '+33612345678', message: 'Hello Ann', reference: 'r1' },
          { to: '+33612345678', message: 'Hello Ann', reference: 'r1-again' },
          { to: '+33612345678', message: 'Another text' },
          { to: '+33612345679', message: '' },
          { to: '+33612345670', message: 'x'.repeat(1601) },
          { to: '+33612345671', message: 'Hi', from: 'Not-a-valid-sender-id' },
          { to: '+447400123456', message: '€uro', from: 'Shop' },
        ],
      },
      options({ batchSize: 10 }),
    );
    expect(plan).toMatchObject({ total: 7, accepted: 3, duplicates: 1 });
    expect(plan.failedNumbers.map((f) => f.number)).toEqual(['+33612345679', '+33612345670', '+33612345671']);
    expect(plan.failedNumbers[0].error).toBe('message is required');
    const [batch] = plan.batches;
    expect(batch.bodies).toEqual(['Hello Ann', 'Another text', '€uro']);
    expect(batch.references).toEqual(['r1', null, null]);
    expect(batch.senders).toEqual([null, null, 'Shop']);
    expect(batch.cost).toBe(100n + 100n + 350n);
  });

  it('refuses a destination without a price, and makes no batch for no recipients', () => {
    const plan = planCampaign({ mode: 1, recipients: ['+33612345678'], message: 'Hi' }, options({ price: () => undefined }));
    expect(plan.failedNumbers).toEqual([{ number: '+33612345678', error: 'No price is set for +33612345678' }]);
    expect(plan.batches).toEqual([]);
    expect(plan.totalCost).toBe(0n);
  });

  it("lists an opted-out number as failed and does not charge it; the sender checked is the entry's own, else the campaign's (null)", () => {
    const asked: [string, string | null][] = [];
    const suppressed = (e164: string, sender: string | null) => {
      asked.push([e164, sender]);
      return e164 === '+33612345679' || (e164 === '+33612345670' && sender === 'Shop');
    };
    const one = planCampaign({ mode: 1, recipients: ['+33612345678', '+33612345679'], message: 'Hi' }, options({ suppressed }));
    expect(one).toMatchObject({ accepted: 1, failedNumbers: [{ number: '+33612345679', error: 'Recipient has opted out' }], totalCost: 100n });
    const two = planCampaign(
      {
        mode: 2,
        messages: [
          { to: '+33612345670', message: 'a', from: 'Shop' },
          { to: '+33612345670', message: 'b' },
        ],
      },
      options({ suppressed }),
    );
    expect(two).toMatchObject({ accepted: 1, failedNumbers: [{ number: '+33612345670', error: 'Recipient has opted out' }] });
    expect(asked).toContainEqual(['+33612345670', 'Shop']);
    expect(asked).toContainEqual(['+33612345670', null]);
  });
});

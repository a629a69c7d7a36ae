import { CommandStatus, NO_RESPONSE, type OutgoingPart, type SubmitOutcome } from '@mp/carrier';
import type { PlannedCarrier } from '@mp/routing-domain';
import { submitWithFailover, type FailoverCarriers } from './part-failover';

const part = {
  source: 'Acme',
  destination: '+447700900123',
  dataCoding: 0,
  payload: Buffer.from('hi'),
  userMessageReference: 1,
  registeredDelivery: true,
} as OutgoingPart;
const planned = (...ids: string[]): PlannedCarrier[] =>
  ids.map((id) => ({ carrierId: id, entry: { prefix: '+', routeClass: 'auto', carrierId: id, priority: 1 }, tier: 'healthy' }));
const refused = (commandStatus: number, permanent = false): SubmitOutcome => ({ ok: false, permanent, commandStatus, reason: `status ${commandStatus}` });

/** Carriers that answer from a script per carrier, recording every submit. */
function scripted(answers: Record<string, SubmitOutcome[]>, unbound: string[] = []): FailoverCarriers & { submits: string[] } {
  const submits: string[] = [];
  return {
    submits,
    isCarrierBound: (carrier) => !unbound.includes(carrier),
    submit: async (carrier) => {
      submits.push(carrier);
      return answers[carrier]?.shift() ?? { ok: true, carrierMessageId: `${carrier}-id` };
    },
  };
}

describe('submitWithFailover', () => {
  it('takes the first carrier when it accepts', async () => {
    const carriers = scripted({});
    const sent = await submitWithFailover(carriers, planned('a', 'b'), part, 0);
    expect(sent).toMatchObject({ result: 'accepted', carrierMessageId: 'a-id', carrier: { carrierId: 'a' }, timedOut: [] });
    expect(carriers.submits).toEqual(['a']);
  });

  it('moves on at once from a carrier without a bind, and marks one that timed out', async () => {
    const noAnswer = refused(NO_RESPONSE);
    const carriers = scripted({ a: [noAnswer], b: [noAnswer] }, ['a']);
    const sent = await submitWithFailover(carriers, planned('a', 'b', 'c'), part, 0);
    expect(sent).toMatchObject({ result: 'accepted', carrier: { carrierId: 'c' }, timedOut: ['b'] });
    expect(carriers.submits).toEqual(['a', 'b', 'c']);
  });

  it('retries a throttling carrier within the budget, then moves on, never back', async () => {
    const throttled = refused(CommandStatus.ESME_RTHROTTLED);
    const carriers = scripted({ a: [throttled, throttled, throttled] });
    const sent = await submitWithFailover(carriers, planned('a', 'b'), part, 1);
    expect(sent).toMatchObject({ result: 'accepted', carrier: { carrierId: 'b' } });
    expect(carriers.submits).toEqual(['a', 'a', 'b']);
  });

  it('does not try another carrier after a permanent rejection', async () => {
    const carriers = scripted({ a: [refused(CommandStatus.ESME_RINVDSTADR, true)] });
    const sent = await submitWithFailover(carriers, planned('a', 'b'), part, 1);
    expect(sent).toMatchObject({ result: 'rejected', carrier: 'a', outcome: { commandStatus: CommandStatus.ESME_RINVDSTADR } });
    expect(carriers.submits).toEqual(['a']);
  });

  it('gives the last refusal when every carrier refused for now, and nothing without a plan', async () => {
    const throttled = refused(CommandStatus.ESME_RTHROTTLED);
    const carriers = scripted({ a: [throttled], b: [throttled] });
    expect(await submitWithFailover(carriers, planned('a', 'b'), part, 0)).toMatchObject({ result: 'exhausted', outcome: throttled });
    expect(await submitWithFailover(carriers, [], part, 0)).toEqual({ result: 'exhausted', outcome: undefined, timedOut: [] });
  });

  describe('a later attempt of a part that timed out (mayHold)', () => {
    const noAnswer = refused(NO_RESPONSE);

    it('tries the carriers that may hold the part last, and reports them with the part accepted elsewhere', async () => {
      const carriers = scripted({});
      const sent = await submitWithFailover(carriers, planned('a', 'b'), part, 0, { mayHold: ['a'] });
      expect(sent).toMatchObject({ result: 'accepted', carrier: { carrierId: 'b' }, timedOut: ['a'] });
      expect(carriers.submits).toEqual(['b']);
    });

    it('resubmits to one that may hold it only when no other took it, once', async () => {
      const throttled = refused(CommandStatus.ESME_RTHROTTLED);
      const carriers = scripted({ b: [throttled], a: [noAnswer] });
      const sent = await submitWithFailover(carriers, planned('a', 'b'), part, 0, { mayHold: ['a'] });
      expect(sent).toEqual({ result: 'exhausted', outcome: noAnswer, timedOut: ['a'] });
      expect(carriers.submits).toEqual(['b', 'a']);
    });

    it('keeps the earlier attempts’ carriers with this one’s timeouts, also those no longer in the plan', async () => {
      const carriers = scripted({ b: [noAnswer] });
      const sent = await submitWithFailover(carriers, planned('b', 'c'), part, 0, { mayHold: ['a'] });
      expect(sent).toMatchObject({ result: 'accepted', carrier: { carrierId: 'c' }, timedOut: ['a', 'b'] });
      expect(carriers.submits).toEqual(['b', 'c']);
    });
  });
});

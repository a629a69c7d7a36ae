import { currentCarrier, decideAfterSubmit, startFailover, type FailoverDecision, type FailoverState, type SubmitOutcomeKind } from './failover';

const policy = { retryBudget: 2 };

/** Runs outcomes through the decisions and lists every carrier a submit went to, in order. */
function submitsFor(state: FailoverState, outcomes: SubmitOutcomeKind[]): { submittedTo: string[]; last: FailoverDecision } {
  const submittedTo: string[] = [];
  let last: FailoverDecision | undefined;
  for (const outcome of outcomes) {
    const carrier = currentCarrier(state);
    if (carrier === undefined) throw new Error('submitted with no carrier left');
    submittedTo.push(carrier);
    last = decideAfterSubmit(state, outcome, policy);
    if (last.action === 'done' || last.action === 'give_up') break;
    state = last.state;
  }
  if (!last) throw new Error('no outcomes');
  return { submittedTo, last };
}

describe('failover', () => {
  const plan = startFailover(['a', 'b', 'c']);

  it('is done when the first carrier accepts', () => {
    expect(decideAfterSubmit(plan, 'accepted', policy)).toMatchObject({ action: 'done', carrierId: 'a' });
  });

  it.each(['throttled', 'temporary_error'] as const)('retries the same carrier after %s within the budget, then moves on', (outcome) => {
    const first = decideAfterSubmit(plan, outcome, policy);
    expect(first).toMatchObject({ action: 'retry_same', carrierId: 'a', state: { retriesOnCurrent: 1 } });
    const second = decideAfterSubmit(first.state, outcome, policy);
    expect(second).toMatchObject({ action: 'retry_same', carrierId: 'a', state: { retriesOnCurrent: 2 } });
    const third = decideAfterSubmit(second.state, outcome, policy);
    expect(third).toMatchObject({ action: 'move', from: 'a', carrierId: 'b', afterTimeout: false, state: { position: 1, retriesOnCurrent: 0 } });
  });

  it('gives each carrier its own budget', () => {
    const { submittedTo, last } = submitsFor(plan, ['throttled', 'throttled', 'throttled', 'throttled', 'throttled', 'accepted']);
    expect(submittedTo).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
    expect(last).toMatchObject({ action: 'done', carrierId: 'b' });
  });

  it('moves on at once when the carrier has no bound bind', () => {
    expect(decideAfterSubmit(plan, 'no_bind', policy)).toMatchObject({ action: 'move', from: 'a', carrierId: 'b', afterTimeout: false });
  });

  it('moves on at once after a timeout, marked, and remembers the carrier that may hold the part', () => {
    const moved = decideAfterSubmit(plan, 'timeout', policy);
    expect(moved).toMatchObject({ action: 'move', from: 'a', carrierId: 'b', afterTimeout: true, state: { timedOut: ['a'] } });
    expect(decideAfterSubmit(moved.state, 'accepted', policy)).toMatchObject({ action: 'done', carrierId: 'b', state: { timedOut: ['a'] } });
  });

  it('never sends a permanent rejection elsewhere', () => {
    expect(decideAfterSubmit(plan, 'permanent_rejection', policy)).toEqual({
      action: 'give_up',
      reason: 'permanent_rejection',
      retryLater: false,
      state: plan,
    });
    const { submittedTo, last } = submitsFor(plan, ['no_bind', 'permanent_rejection', 'accepted']);
    expect(submittedTo).toEqual(['a', 'b']);
    expect(last).toMatchObject({ action: 'give_up', reason: 'permanent_rejection' });
  });

  it('gives up, retryable later, when every carrier is used up, and never returns to one it left', () => {
    const { submittedTo, last } = submitsFor(plan, ['timeout', 'no_bind', 'throttled', 'throttled', 'throttled', 'accepted']);
    expect(submittedTo).toEqual(['a', 'b', 'c', 'c', 'c']);
    expect(last).toMatchObject({ action: 'give_up', reason: 'candidates_exhausted', retryLater: true, state: { timedOut: ['a'] } });
    expect(decideAfterSubmit(last.state, 'accepted', policy)).toMatchObject({ action: 'give_up', reason: 'candidates_exhausted' });
  });

  it('keeps each carrier once, even if the plan names one twice', () => {
    const { submittedTo } = submitsFor(startFailover(['a', 'b', 'a']), ['no_bind', 'no_bind', 'accepted']);
    expect(submittedTo).toEqual(['a', 'b']);
  });

  it('gives up on an empty plan', () => {
    expect(decideAfterSubmit(startFailover([]), 'accepted', policy)).toMatchObject({ action: 'give_up', reason: 'candidates_exhausted' });
  });

  it('with a budget of 0, moves on at the first throttle', () => {
    expect(decideAfterSubmit(plan, 'throttled', { retryBudget: 0 })).toMatchObject({ action: 'move', carrierId: 'b' });
  });

  describe('a later attempt of a part that timed out', () => {
    it('puts the carriers that may hold it last, after every other', () => {
      const again = startFailover(['a', 'b', 'c'], { mayHold: ['a'] });
      expect(again.carriers).toEqual(['b', 'c', 'a']);
      expect(again.timedOut).toEqual(['a']);
    });

    it('goes to a carrier that may hold it only when no other took it, and not again after a second timeout', () => {
      const again = startFailover(['a', 'b'], { mayHold: ['a', 'z'] });
      const onA = decideAfterSubmit(again, 'no_bind', policy);
      expect(onA).toMatchObject({ action: 'move', from: 'b', carrierId: 'a', afterTimeout: false });
      if (onA.action !== 'move') throw new Error('expected a move');
      expect(decideAfterSubmit(onA.state, 'timeout', policy)).toMatchObject({
        action: 'give_up',
        reason: 'candidates_exhausted',
        state: { timedOut: ['a', 'z'] },
      });
    });

    it('keeps them when there is no other carrier, as a one-carrier platform resubmits', () => {
      const again = startFailover(['a'], { mayHold: ['a'] });
      expect(currentCarrier(again)).toBe('a');
      const timedOutAgain = decideAfterSubmit(again, 'timeout', policy);
      expect(timedOutAgain).toMatchObject({ action: 'give_up', reason: 'candidates_exhausted', retryLater: true, state: { timedOut: ['a'] } });
    });
  });
});

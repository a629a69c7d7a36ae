import type { CarrierId } from './route-entry';

/** What a submit to a carrier came to, as the dispatcher classifies the SMSC's answer. */
export const SUBMIT_OUTCOMES = ['accepted', 'no_bind', 'throttled', 'temporary_error', 'timeout', 'permanent_rejection'] as const;
export type SubmitOutcomeKind = (typeof SUBMIT_OUTCOMES)[number];

/**
 * Where a part is in its plan. Plain data: the dispatcher keeps it with the part between
 * attempts (a job retry included), so no carrier is tried twice.
 */
export interface FailoverState {
  /** The plan's carriers, each once, in order. */
  readonly carriers: readonly CarrierId[];
  /** Index of the carrier the part is on. */
  readonly position: number;
  /** Retries already spent on that carrier (throttled or temporary error). */
  readonly retriesOnCurrent: number;
  /** Carriers left after a submit timed out: they may have taken the part and may still deliver it. */
  readonly timedOut: readonly CarrierId[];
}

export interface FailoverPolicy {
  /** Resubmits to the same carrier after throttling or a temporary error, before moving on. */
  retryBudget: number;
}

export type FailoverDecision =
  /** The carrier took the part: its receipt will come from `carrierId`. */
  | { action: 'done'; carrierId: CarrierId; state: FailoverState }
  /** Submit again to the same carrier (it refused the part for now; nothing was taken). */
  | { action: 'retry_same'; carrierId: CarrierId; state: FailoverState }
  /**
   * Submit to the next carrier. `afterTimeout`: `from` may still deliver the part, so the caller
   * must record the move (a second receipt, a second carrier charge) before submitting.
   */
  | { action: 'move'; from: CarrierId; carrierId: CarrierId; afterTimeout: boolean; state: FailoverState }
  /**
   * No carrier of the plan will take it now. `permanent_rejection` fails the part for good;
   * `candidates_exhausted` may be retried later (retryLater) with startFailover(..., { mayHold: state.timedOut }).
   */
  | { action: 'give_up'; reason: 'permanent_rejection' | 'candidates_exhausted'; retryLater: boolean; state: FailoverState };

/**
 * The state before the first submit: the plan's carriers (planRoute), each kept once.
 * `mayHold` names carriers an earlier attempt left after a timeout: they go last, after every
 * other carrier, so a part goes again to one of them only when no other took it. Not left out:
 * the resubmit carries the same user_message_reference and bytes, which such a carrier's
 * duplicate filter drops if it holds the part (as a one-carrier platform resubmits today), and
 * left out it could starve the part when the others stay unbound or throttling.
 */
export function startFailover(carriers: readonly CarrierId[], options: { mayHold?: readonly CarrierId[] } = {}): FailoverState {
  const unique = [...new Set(carriers)];
  const mayHold = new Set(options.mayHold ?? []);
  const ordered = [...unique.filter((carrier) => !mayHold.has(carrier)), ...unique.filter((carrier) => mayHold.has(carrier))];
  return { carriers: ordered, position: 0, retriesOnCurrent: 0, timedOut: [...mayHold] };
}

/** The carrier to submit to now; undefined for an empty plan. */
export function currentCarrier(state: FailoverState): CarrierId | undefined {
  return state.carriers[state.position];
}

/**
 * What to do after a submit to currentCarrier(state):
 * - accepted: done;
 * - throttled, temporary_error: the same carrier while `retryBudget` lasts, then the next;
 * - no_bind: the next at once (nothing was sent; a rebind takes seconds);
 * - timeout: the next at once, marked afterTimeout; never the same carrier again, it may hold the part;
 * - permanent_rejection: give up; an invalid destination is invalid at every carrier.
 * The position only moves forward, so a carrier once left is never submitted to again.
 */
export function decideAfterSubmit(state: FailoverState, outcome: SubmitOutcomeKind, policy: FailoverPolicy): FailoverDecision {
  const carrierId = currentCarrier(state);
  if (carrierId === undefined) return { action: 'give_up', reason: 'candidates_exhausted', retryLater: true, state };
  switch (outcome) {
    case 'accepted':
      return { action: 'done', carrierId, state };
    case 'permanent_rejection':
      return { action: 'give_up', reason: 'permanent_rejection', retryLater: false, state };
    case 'throttled':
    case 'temporary_error':
      if (state.retriesOnCurrent < policy.retryBudget) {
        return { action: 'retry_same', carrierId, state: { ...state, retriesOnCurrent: state.retriesOnCurrent + 1 } };
      }
      return moveOn(state, carrierId, false);
    case 'no_bind':
      return moveOn(state, carrierId, false);
    case 'timeout':
      return moveOn({ ...state, timedOut: state.timedOut.includes(carrierId) ? state.timedOut : [...state.timedOut, carrierId] }, carrierId, true);
  }
}

function moveOn(state: FailoverState, from: CarrierId, afterTimeout: boolean): FailoverDecision {
  const next: FailoverState = { ...state, position: state.position + 1, retriesOnCurrent: 0 };
  const carrierId = currentCarrier(next);
  if (carrierId === undefined) return { action: 'give_up', reason: 'candidates_exhausted', retryLater: true, state: next };
  return { action: 'move', from, carrierId, afterTimeout, state: next };
}

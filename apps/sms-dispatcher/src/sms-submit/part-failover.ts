import type { OutgoingPart, SubmitOutcome } from '@mp/carrier';
import { currentCarrier, decideAfterSubmit, startFailover, type PlannedCarrier, type SubmitOutcomeKind } from '@mp/routing-domain';
import { submitOutcomeLabel } from '../carrier/submit-outcome-label';

/** The carriers a part can be sent to, as CarrierPool gives them. */
export interface FailoverCarriers {
  submit(carrier: string, part: OutgoingPart): Promise<SubmitOutcome>;
  isCarrierBound(carrier: string): boolean;
}

export type FailoverResult =
  /** `carrier` took the part; `timedOut`: carriers left after a timeout before it (they may deliver it too). */
  | { result: 'accepted'; carrierMessageId: string; carrier: PlannedCarrier; timedOut: string[] }
  /** Refused for good (an invalid destination): no other carrier is tried. */
  | { result: 'rejected'; outcome: SubmitOutcome & { ok: false }; carrier: string }
  /** No carrier took it now; `outcome` is the last one's answer. */
  | { result: 'exhausted'; outcome: (SubmitOutcome & { ok: false }) | undefined; timedOut: string[] };

/** How a submit's outcome counts for failover; a timeout on a carrier without a bound bind sent nothing. */
export function failoverOutcome(outcome: SubmitOutcome, wasBound: boolean): SubmitOutcomeKind {
  switch (submitOutcomeLabel(outcome)) {
    case 'accepted':
      return 'accepted';
    case 'throttled':
      return 'throttled';
    case 'temporary_error':
      return 'temporary_error';
    case 'permanent_error':
      return 'permanent_rejection';
    case 'timeout':
      return wasBound ? 'timeout' : 'no_bind';
  }
}

/**
 * Submits a part to the plan's carriers in order (decideAfterSubmit): the same carrier again
 * within `retryBudget` after throttling or a temporary error, the next one at once when a carrier
 * has no bind or times out; never one carrier twice. `mayHold`: carriers an earlier attempt left
 * after a timeout (the part's timedOutCarriers), tried last; the result's `timedOut` includes them.
 */
export async function submitWithFailover(
  carriers: FailoverCarriers,
  plan: readonly PlannedCarrier[],
  part: OutgoingPart,
  retryBudget: number,
  options: { mayHold?: readonly string[] } = {},
): Promise<FailoverResult> {
  let state = startFailover(
    plan.map((planned) => planned.carrierId),
    options,
  );
  let last: (SubmitOutcome & { ok: false }) | undefined;
  for (;;) {
    const carrierId = currentCarrier(state);
    if (carrierId === undefined) return { result: 'exhausted', outcome: last, timedOut: [...state.timedOut] };
    const wasBound = carriers.isCarrierBound(carrierId);
    const outcome = await carriers.submit(carrierId, part);
    const decision = decideAfterSubmit(state, failoverOutcome(outcome, wasBound), { retryBudget });
    if (!outcome.ok) last = outcome;
    switch (decision.action) {
      case 'done':
        if (!outcome.ok) throw new Error('an accepted submit without a carrier id');
        return {
          result: 'accepted',
          carrierMessageId: outcome.carrierMessageId,
          carrier: plan.find((planned) => planned.carrierId === carrierId) as PlannedCarrier,
          timedOut: [...state.timedOut],
        };
      case 'give_up':
        if (decision.reason === 'permanent_rejection' && last) return { result: 'rejected', outcome: last, carrier: carrierId };
        return { result: 'exhausted', outcome: last, timedOut: [...decision.state.timedOut] };
      case 'retry_same':
      case 'move':
        state = decision.state;
    }
  }
}

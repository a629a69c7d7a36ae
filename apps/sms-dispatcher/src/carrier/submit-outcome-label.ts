import { CommandStatus, NO_RESPONSE, type SubmitOutcome } from '@mp/carrier';

/** How a submit's outcome is counted: by metrics, health and failover alike. */
export type SubmitOutcomeLabel = 'accepted' | 'throttled' | 'temporary_error' | 'permanent_error' | 'timeout';

export function submitOutcomeLabel(outcome: SubmitOutcome): SubmitOutcomeLabel {
  if (outcome.ok) return 'accepted';
  if (outcome.commandStatus === NO_RESPONSE) return 'timeout';
  if (outcome.commandStatus === CommandStatus.ESME_RTHROTTLED || outcome.commandStatus === CommandStatus.ESME_RMSGQFUL) return 'throttled';
  return outcome.permanent ? 'permanent_error' : 'temporary_error';
}

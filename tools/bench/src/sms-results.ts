// The SMS benchmark's targets and verdicts.
import { arrivalMet, type LoadFigures } from './results';

/** The targets for POST /sms/send on one machine. */
export const SMS_TARGETS = { acceptedPerSecond: 4_000, p99Ms: 30, submitP99Ms: 50 } as const;

export type SmsBenchFigures = LoadFigures;

export interface TargetVerdicts {
  throughput: boolean;
  submit: boolean;
}

export function smsVerdicts(figures: SmsBenchFigures): TargetVerdicts {
  return {
    throughput: figures.acceptedPerSecond >= SMS_TARGETS.acceptedPerSecond && figures.latencyMs.p99 <= SMS_TARGETS.p99Ms,
    // The point: submit_sm at the simulator (the record's time is later, an upper bound).
    submit: arrivalMet(figures.atSimulator, SMS_TARGETS.submitP99Ms),
  };
}

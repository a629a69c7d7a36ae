/** The `err` of the EXPIRED receipt recorded for a part that no carrier receipt ever answered. */
export const NO_RECEIPT = 'no-receipt';

/** A receipt's error code as a part and its message keep it: the carrier's `err`, none when it wrote none. */
export function receiptErrorCode(err: string): string | null {
  return err === '' ? null : err;
}

/** What a message that did not end delivered says of the receipt that ended its part (its `error_reason`). */
export function receiptErrorReason(stat: string, err: string): string {
  if (err === NO_RECEIPT) return 'no delivery receipt within the receipt timeout';
  return err === '' ? `the carrier's receipt said ${stat}` : `the carrier's receipt said ${stat} (err:${err})`;
}

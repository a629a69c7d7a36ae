import type { InboxMessage } from './reassembly';

/** The counters GET /stats shows. */
export interface SimulatorStats {
  /** submit_sm PDUs received. */
  submits: number;
  /** Parts accepted (answered OK with a new message_id). */
  accepted: number;
  /** Repeats answered with the original message_id and not delivered again. */
  duplicates_dropped: number;
  /** Answered ESME_RTHROTTLED. */
  throttled: number;
  /** Answered with another error (SMSC_REJECT_RATE, bad address or data). */
  rejected: number;
  /** deliver_sm receipts written to a bind. */
  receipts_sent: number;
  /** Mobile-originated deliver_sm parts written to a bind (POST /mo), resends included. */
  mo_parts_sent: number;
  /** Successful binds. */
  binds: number;
  /** Binds answered ESME_RBINDFAIL during an outage (POST /binds/drop). */
  binds_refused: number;
  /** The most submit_sm one bind has had waiting for their response at the same time. */
  max_outstanding: number;
}

/** What the inspection API reads: the messages "the phone" received, and the counters. */
export class SimulatorState {
  readonly stats: SimulatorStats = {
    submits: 0,
    accepted: 0,
    duplicates_dropped: 0,
    throttled: 0,
    rejected: 0,
    receipts_sent: 0,
    mo_parts_sent: 0,
    binds: 0,
    binds_refused: 0,
    max_outstanding: 0,
  };

  private inbox: InboxMessage[] = [];

  deliver(message: InboxMessage): void {
    this.inbox.push(message);
  }

  /** Oldest first; only those to one number when `to` is given. */
  messages(to?: string): InboxMessage[] {
    return to === undefined ? [...this.inbox] : this.inbox.filter((message) => message.to === to);
  }

  clearMessages(): void {
    this.inbox = [];
  }
}

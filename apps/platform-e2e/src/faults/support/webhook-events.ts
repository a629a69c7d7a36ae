// The webhook events a fault test's receiver got, read back per message.
import type { ReceivedWebhook } from '@mp/testing';

const FINAL_EVENTS = ['message.delivered', 'message.failed', 'message.undelivered', 'message.expired', 'message.rejected', 'message.cancelled'];

export interface WebhookTally {
  /** Messages with at least one final-state event received. */
  withFinalEvent: number;
  /** Messages whose events name two different final states. */
  twoFinalStates: string[];
  /** Events taken more than once (the same message and type): at-least-once delivery repeats one cut off by a crash. */
  repeats: number;
  /** Every request the receiver got, answered or refused. */
  requests: number;
}

export function tallyWebhooks(received: ReceivedWebhook[], messageIds: string[]): WebhookTally {
  const finals = new Map<string, Set<string>>();
  const seen = new Set<string>();
  let repeats = 0;
  const ids = new Set(messageIds);
  for (const request of received) {
    const event = JSON.parse(request.body) as { type: string; data: { message_id?: string } };
    const id = event.data.message_id;
    if (!id || !ids.has(id)) continue;
    const key = `${id} ${event.type}`;
    if (seen.has(key)) repeats += 1;
    seen.add(key);
    if (FINAL_EVENTS.includes(event.type)) finals.set(id, (finals.get(id) ?? new Set()).add(event.type));
  }
  return {
    withFinalEvent: finals.size,
    twoFinalStates: [...finals].filter(([, types]) => types.size > 1).map(([id]) => id),
    repeats,
    requests: received.length,
  };
}

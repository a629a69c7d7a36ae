// Where the tests' own traffic can be watched (the end-to-end suite checks it against the API
// reference, see openapi/conformance.ts): the gateways startStack runs, and the webhooks that the
// test receivers get.

/** A request a test's webhook receiver got (as webhook-receiver.ts records it). */
export interface ObservedWebhook {
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
}

const gateways = new Set<string>();
const webhookListeners = new Set<(webhook: ObservedWebhook) => void>();

/** startStack: the gateway at this origin (`http://127.0.0.1:port`) runs, or (false) no longer. */
export function gatewayRunning(origin: string, running: boolean): void {
  if (running) gateways.add(origin);
  else gateways.delete(origin);
}

export function isRunningGateway(origin: string): boolean {
  return gateways.has(origin);
}

/** Calls `listener` with every webhook a receiver of startWebhookReceiver gets; returns its removal. */
export function onWebhookReceived(listener: (webhook: ObservedWebhook) => void): () => void {
  webhookListeners.add(listener);
  return () => webhookListeners.delete(listener);
}

export function webhookReceived(webhook: ObservedWebhook): void {
  for (const listener of webhookListeners) listener(webhook);
}

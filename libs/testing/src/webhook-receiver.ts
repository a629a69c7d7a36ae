import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookReceived } from './test-traffic';

// For the tests: a customer's webhook endpoint on 127.0.0.1.

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers the n-th request (0-based) with this; the default answers 204. */
  answer: (n: number, response: ServerResponse) => void;
  close(): Promise<void>;
}

const flatten = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]));

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const n = receiver.received.length;
      const webhook = { path: request.url ?? '', headers: flatten(request.headers), body: Buffer.concat(chunks).toString('utf8') };
      receiver.received.push(webhook);
      webhookReceived(webhook);
      receiver.answer(n, response);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hooks/sms`,
    received: [],
    answer: (_n, response) => response.writeHead(204).end(),
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
  return receiver;
}

/** Answers with these statuses in turn, then keeps answering with the last one. */
export function answering(...statuses: number[]): WebhookReceiver['answer'] {
  return (n, response) => response.writeHead(statuses[Math.min(n, statuses.length - 1)], { 'content-type': 'text/plain' }).end(`answer ${n}`);
}

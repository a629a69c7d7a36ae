import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invalidParameterError, invalidTokenError } from './graph-errors';
import { type Inbox, toE164 } from './inbox';
import { parseSendRequest, type TemplateMessage } from './send-request';

/** What the routes need from the simulator. */
export interface HttpApiContext {
  accessToken: string;
  inbox: Inbox;
  /** Records an accepted message (and starts its statuses); returns its wamid. */
  accept(message: TemplateMessage, phoneNumberId: string): string;
}

const SEND_PATH = /^\/(v\d+\.\d+)\/([^/]+)\/messages$/;
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The Cloud API's send endpoint and the inspection API:
 *   POST   /:version/:phoneNumberId/messages  send a template message (Bearer WHATSAPP_ACCESS_TOKEN)
 *   GET    /messages[?to=+E164]               what the handsets received, oldest first
 *   DELETE /messages                          forgets them
 *   GET    /health
 */
export function createHttpApi(context: HttpApiContext): Server {
  return createServer((request, response) => {
    route(request, response, context).catch((error: unknown) => send(response, 500, { error: String(error) }));
  });
}

async function route(request: IncomingMessage, response: ServerResponse, context: HttpApiContext): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://simulator');
  const method = request.method ?? 'GET';
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const sendPath = SEND_PATH.exec(path);
  if (sendPath) {
    if (method !== 'POST') return notAllowed(response, 'POST');
    return sendMessage(request, response, context, decodeURIComponent(sendPath[2] ?? ''));
  }
  if (path === '/health') return method === 'GET' || method === 'HEAD' ? send(response, 200, { status: 'ok' }) : notAllowed(response, 'GET');
  if (path !== '/messages') return send(response, 404, { error: `no route ${method} ${url.pathname}` });
  if (method === 'DELETE') {
    context.inbox.clear();
    response.writeHead(204).end();
    return;
  }
  if (method !== 'GET') return notAllowed(response, 'GET, DELETE');
  const to = url.searchParams.get('to');
  if (to === null || to === '') return send(response, 200, context.inbox.messages());
  const number = toE164(to);
  if (!number) return send(response, 400, { error: 'to must be a phone number in E.164 format, e.g. +447700900123' });
  return send(response, 200, context.inbox.messages(number));
}

async function sendMessage(request: IncomingMessage, response: ServerResponse, context: HttpApiContext, phoneNumberId: string): Promise<void> {
  const raw = await readBody(request);
  if (request.headers.authorization !== `Bearer ${context.accessToken}`) return send(response, 401, invalidTokenError());
  if (raw === undefined) return send(response, 400, invalidParameterError(`the request body is larger than ${MAX_BODY_BYTES} bytes`));
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return send(response, 400, invalidParameterError('the request body must be JSON'));
  }
  const parsed = parseSendRequest(body);
  if (!parsed.ok) return send(response, 400, invalidParameterError(parsed.problem));
  const { to } = parsed.message;
  const id = context.accept(parsed.message, phoneNumberId);
  return send(response, 200, { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id }] });
}

/** The body as text; undefined when it is too large (the rest is read and dropped). */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}

function notAllowed(response: ServerResponse, allow: string): void {
  response.setHeader('Allow', allow);
  send(response, 405, { error: `method not allowed; allowed: ${allow}` });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return;
  const json = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  response.end(json);
}

export function listenHttp(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host }, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toE164 } from './addresses';
import type { Concatenation, MobileOriginated } from './mobile-originated';
import type { SimulatorState } from './state';

/** What the API can do to the simulator besides reading it. */
export interface SimulatorControls {
  clearMessages(): void;
  /** Drops every SMPP connection and refuses binds for refuseMs; returns how many were dropped. */
  dropBinds(refuseMs: number): number;
  /** The handset sends a message to the platform (POST /mo). */
  sendMobileOriginated(mo: MobileOriginated): MobileOriginatedAnswer;
}

/** What POST /mo answers: the parts sent (or waiting for a receiving bind) and their ids. */
export interface MobileOriginatedAnswer {
  parts: number;
  message_ids: string[];
  /** False when no receiving bind was there: the parts go when one binds. */
  sent: boolean;
}

/** The longest text POST /mo takes (as the platform's own API). */
const MAX_MO_CHARACTERS = 1600;

/** The longest outage POST /binds/drop starts: ten minutes. */
const MAX_REFUSE_MS = 600_000;

/**
 * The inspection API, what tests and newcomers read "the phone" from:
 *   GET    /messages[?to=+E164]  messages received, oldest first
 *   DELETE /messages             forgets them (and incomplete multipart messages)
 *   GET    /stats                counters
 *   POST   /binds/drop[?refuse_ms=N]  an outage: drops every bind, refuses binds for N ms
 *   POST   /mo                  the handset sends { from, to, text, concat?, to_ton? } to the platform
 *   GET    /health, /health/live, /health/ready
 */
export function createHttpApi(state: SimulatorState, controls: SimulatorControls): Server {
  return createServer((request, response) => {
    try {
      route(request, response, state, controls);
    } catch (error) {
      send(response, 500, { error: String(error) });
    }
  });
}

function route(request: IncomingMessage, response: ServerResponse, state: SimulatorState, controls: SimulatorControls): void {
  const url = new URL(request.url ?? '/', 'http://simulator');
  const method = request.method ?? 'GET';
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (path === '/health' || path === '/health/live' || path === '/health/ready') {
    return method === 'GET' || method === 'HEAD' ? send(response, 200, { status: 'ok' }) : notAllowed(response, 'GET');
  }
  if (path === '/stats') return method === 'GET' ? send(response, 200, state.stats) : notAllowed(response, 'GET');
  if (path === '/mo') return method === 'POST' ? void mobileOriginated(request, response, controls) : notAllowed(response, 'POST');
  if (path === '/binds/drop') return method === 'POST' ? dropBinds(url, response, controls) : notAllowed(response, 'POST');
  if (path !== '/messages') return send(response, 404, { error: `no route ${method} ${url.pathname}` });
  if (method === 'DELETE') {
    const deleted = state.messages().length;
    controls.clearMessages();
    return send(response, 200, { deleted });
  }
  if (method !== 'GET') return notAllowed(response, 'GET, DELETE');
  const to = url.searchParams.get('to');
  if (to === null || to === '') return send(response, 200, state.messages());
  // An unescaped '+' in a query string arrives as a space; toE164 takes it either way.
  const number = toE164(to);
  if (!number) return send(response, 400, { error: 'to must be a phone number in E.164 format, e.g. +447700900123' });
  return send(response, 200, state.messages(number));
}

function dropBinds(url: URL, response: ServerResponse, controls: SimulatorControls): void {
  const raw = url.searchParams.get('refuse_ms') ?? '0';
  const refuseMs = Number(raw);
  if (!/^\d+$/.test(raw) || refuseMs > MAX_REFUSE_MS) {
    return send(response, 400, { error: `refuse_ms must be a whole number of milliseconds from 0 to ${MAX_REFUSE_MS}` });
  }
  send(response, 200, { dropped: controls.dropBinds(refuseMs), refuse_ms: refuseMs });
}

async function mobileOriginated(request: IncomingMessage, response: ServerResponse, controls: SimulatorControls): Promise<void> {
  let body: unknown;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return send(response, 400, { error: 'the body must be JSON: { "from": "+447700900123", "to": "+447400900123", "text": "STOP" }' });
  }
  const mo = parseMobileOriginated(body);
  if (typeof mo === 'string') return send(response, 400, { error: mo });
  try {
    send(response, 200, controls.sendMobileOriginated(mo));
  } catch (error) {
    send(response, 400, { error: String(error instanceof Error ? error.message : error) });
  }
}

/** The message, or what is wrong with the body. */
function parseMobileOriginated(body: unknown): MobileOriginated | string {
  if (typeof body !== 'object' || body === null) return 'the body must be a JSON object';
  const { from, to, text, concat = 'udh', to_ton: toTon } = body as Record<string, unknown>;
  const handset = typeof from === 'string' ? toE164(from) : null;
  if (!handset) return 'from must be a phone number in E.164 format, e.g. +447700900123';
  if (typeof to !== 'string' || !/^\+?[0-9]{3,15}$/.test(to.trim())) return 'to must be a number or short code, e.g. +447400900123';
  if (typeof text !== 'string' || text.length === 0 || [...text].length > MAX_MO_CHARACTERS) return `text must be 1 to ${MAX_MO_CHARACTERS} characters`;
  if (concat !== 'udh' && concat !== 'sar') return 'concat must be "udh" or "sar"';
  if (toTon !== undefined && !(Number.isInteger(toTon) && (toTon as number) >= 0 && (toTon as number) <= 6)) return 'to_ton must be an integer from 0 to 6';
  const destination = to.trim();
  const message = { text, concat: concat as Concatenation };
  if (toTon !== undefined) return { from: handset, to: destination.replace(/^\+/, ''), toTon: toTon as number, ...message };
  return { from: handset, to: destination.startsWith('+') || destination.length <= 6 ? destination : `+${destination}`, ...message };
}

function notAllowed(response: ServerResponse, allow: string): void {
  response.setHeader('Allow', allow);
  send(response, 405, { error: `method not allowed; allowed: ${allow}` });
}

function send(response: ServerResponse, status: number, body: unknown): void {
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

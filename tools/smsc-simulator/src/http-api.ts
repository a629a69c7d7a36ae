import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toE164 } from './addresses';
import type { SimulatorState } from './state';

/** What the API can do to the simulator besides reading it. */
export interface SimulatorControls {
  clearMessages(): void;
  /** Drops every SMPP connection and refuses binds for refuseMs; returns how many were dropped. */
  dropBinds(refuseMs: number): number;
}

/** The longest outage POST /binds/drop starts: ten minutes. */
const MAX_REFUSE_MS = 600_000;

/**
 * The inspection API, what tests and newcomers read "the phone" from:
 *   GET    /messages[?to=+E164]  messages received, oldest first
 *   DELETE /messages             forgets them (and incomplete multipart messages)
 *   GET    /stats                counters
 *   POST   /binds/drop[?refuse_ms=N]  an outage: drops every bind, refuses binds for N ms
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

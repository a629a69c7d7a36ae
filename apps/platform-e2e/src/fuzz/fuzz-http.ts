import fc from 'fast-check';
import { connect, type Socket } from 'node:net';

/** How a body goes over the wire. */
export type Framing = 'content-length' | 'chunked' | 'length-too-short' | 'length-too-long';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  framing: Framing;
}

export interface FuzzAnswer {
  status: number;
  headers: Headers;
  /** The body as sent. */
  text: string;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  body: unknown;
}

/** The longest any answer may take: a request that takes longer hangs. */
export const ANSWER_TIMEOUT_MS = 15_000;
/** How long a server may wait for the bytes a too-long Content-Length promised before the client gives up. */
const HALF_CLOSE_AFTER_MS = 200;
const WRITE_SLICE = 64 * 1024;

/**
 * How a failing request is printed: strings over 200 characters cut to their start and length,
 * so a shrunk counterexample stays readable.
 */
export function withReadableForm(request: FuzzRequest): FuzzRequest {
  return Object.assign(request, {
    [fc.toStringMethod]: () =>
      JSON.stringify(request, (_key, value: unknown) =>
        typeof value === 'string' && value.length > 200 ? `${value.slice(0, 120)}… (${value.length} characters)` : value,
      ),
  });
}

/**
 * Sends one request over a connection of its own, written byte by byte as the framing says: a
 * Content-Length, chunks, or a Content-Length that does not match the body (too short leaves bytes
 * the server reads as a second request; too long leaves it waiting for bytes that never come,
 * until the client gives up and half-closes). A well-framed request is kept alive, as HTTP/1.1
 * clients do, and the client closes once its answer is whole: a server that must close the
 * connection itself with part of a refused body unread (an early 413) makes its kernel reset it,
 * and the answer is lost (a client that asks `connection: close` meets that race). A mis-framed
 * one asks `connection: close` and reads whatever answers come before the server closes.
 */
export function send(origin: URL, fuzz: FuzzRequest): Promise<FuzzAnswer[]> {
  const misframed = fuzz.framing === 'length-too-short' || fuzz.framing === 'length-too-long';
  return new Promise((resolve, reject) => {
    const socket = connect(Number(origin.port), origin.hostname);
    const received: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswers(Buffer.concat(received), fuzz.method).answers);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer, and the connection still open, after ${ANSWER_TIMEOUT_MS} ms (a hang)`));
    }, ANSWER_TIMEOUT_MS);
    socket.on('connect', () => {
      void writeUntilAnswered(socket, wireBytes(origin, fuzz, misframed), () => received.length > 0).then(() => {
        if (fuzz.framing === 'length-too-long') setTimeout(() => socket.end(), HALF_CLOSE_AFTER_MS);
      });
    });
    socket.on('data', (part: Buffer) => {
      received.push(part);
      if (!misframed && parseAnswers(Buffer.concat(received), fuzz.method).complete) finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', finish);
  });
}

/**
 * Writes in slices and stops once an answer has come, as curl does ("HTTP error before end of
 * send, stop sending"): a server that refuses a body early (413) closes the connection, and bytes
 * still arriving then make its kernel reset the connection, losing the answer.
 */
async function writeUntilAnswered(socket: Socket, bytes: Buffer, answered: () => boolean): Promise<void> {
  for (let at = 0; at < bytes.length && !answered() && !socket.destroyed; at += WRITE_SLICE) {
    if (!socket.write(bytes.subarray(at, at + WRITE_SLICE))) await new Promise((drained) => socket.once('drain', drained));
    if (bytes.length > WRITE_SLICE) await new Promise((wake) => setTimeout(wake, 1));
  }
}

function wireBytes(origin: URL, fuzz: FuzzRequest, close: boolean): Buffer {
  const body = fuzz.body === undefined ? undefined : Buffer.from(fuzz.body, 'utf8');
  const lines = [
    `${fuzz.method} ${fuzz.path} HTTP/1.1`,
    `host: ${origin.host}`,
    ...(close ? ['connection: close'] : []),
    ...Object.entries(fuzz.headers).map(([name, value]) => `${name}: ${value}`),
  ];
  if (body === undefined) return Buffer.from([...lines, '', ''].join('\r\n'), 'latin1');
  if (fuzz.framing === 'chunked') {
    const cut = Math.floor(body.length / 2);
    const chunk = (part: Buffer) => (part.length === 0 ? [] : [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]);
    const head = Buffer.from([...lines, 'transfer-encoding: chunked', '', ''].join('\r\n'), 'latin1');
    return Buffer.concat([head, ...chunk(body.subarray(0, cut)), ...chunk(body.subarray(cut)), Buffer.from('0\r\n\r\n')]);
  }
  const declared = fuzz.framing === 'length-too-short' ? Math.floor(body.length / 2) : fuzz.framing === 'length-too-long' ? body.length + 10 : body.length;
  return Buffer.concat([Buffer.from([...lines, `content-length: ${declared}`, '', ''].join('\r\n'), 'latin1'), body]);
}

/**
 * Every whole answer in the bytes a connection received: status, headers and body (none for
 * HEAD's first), and whether the first one is whole yet.
 */
export function parseAnswers(bytes: Buffer, method = 'GET'): { answers: FuzzAnswer[]; complete: boolean } {
  const answers: FuzzAnswer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const head = bytes.subarray(at, headEnd).toString('latin1');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
    if (!status) break;
    const length = method === 'HEAD' && answers.length === 0 ? undefined : /\r\ncontent-length: *(\d+)/i.exec(head);
    const chunked = /\r\ntransfer-encoding: *chunked/i.test(head);
    const start = headEnd + 4;
    const { body, end } = chunked
      ? dechunk(bytes, start)
      : { body: bytes.subarray(start, start + Number(length?.[1] ?? 0)), end: start + Number(length?.[1] ?? 0) };
    if (end > bytes.length || end < start) break;
    const text = body.toString('utf8');
    answers.push({ status: Number(status[1]), headers: headersOf(head), text, body: parseJson(text) });
    at = end;
  }
  return { answers, complete: answers.length > 0 };
}

/** A chunked body from `from`; `end` is Infinity while it is not whole. */
function dechunk(bytes: Buffer, from: number): { body: Buffer; end: number } {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return { body: Buffer.concat(parts), end: Infinity };
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) {
      const trailerEnd = bytes.indexOf('\r\n\r\n', lineEnd);
      return { body: Buffer.concat(parts), end: trailerEnd < 0 ? Infinity : trailerEnd + 4 };
    }
    if (lineEnd + 2 + size > bytes.length) return { body: Buffer.concat(parts), end: Infinity };
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

function headersOf(head: string): Headers {
  const headers = new Headers();
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

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
    [fc.toStringMethod]: () => JSON.stringify(request, (_key, value: unknown) => (typeof value === 'string' && value.length > 200 ? `${value.slice(0, 120)}… (${value.length} characters)` : value)),
  });
}

/**
 * Sends one request over a connection of its own (`connection: close`) and reads every answer
 * until the server closes it. Written byte by byte as the framing says: a Content-Length, chunks,
 * or a Content-Length that does not match the body (too short leaves bytes the server reads as a
 * second request; too long leaves it waiting for bytes that never come, until the client gives up
 * and half-closes). A write the server cuts off (an early 413) is not an error: its answer is what counts.
 */
export function send(origin: URL, fuzz: FuzzRequest): Promise<FuzzAnswer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(origin.port), origin.hostname);
    const received: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer, and the connection still open, after ${ANSWER_TIMEOUT_MS} ms (a hang)`));
    }, ANSWER_TIMEOUT_MS);
    // The server closes the connection after its answer (connection: close). A half-close of
    // ours would end the request early; only a body too short for its Content-Length needs it.
    socket.on('connect', () => {
      void writeUntilAnswered(socket, wireBytes(origin, fuzz), () => received.length > 0).then(() => {
        if (fuzz.framing === 'length-too-long') setTimeout(() => socket.end(), HALF_CLOSE_AFTER_MS);
      });
    });
    socket.on('data', (part: Buffer) => received.push(part));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswers(Buffer.concat(received), fuzz.method));
    });
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

function wireBytes(origin: URL, fuzz: FuzzRequest): Buffer {
  const body = fuzz.body === undefined ? undefined : Buffer.from(fuzz.body, 'utf8');
  const lines = [`${fuzz.method} ${fuzz.path} HTTP/1.1`, `host: ${origin.host}`, 'connection: close', ...Object.entries(fuzz.headers).map(([name, value]) => `${name}: ${value}`)];
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

/** Every answer in the bytes a connection received: status, and the JSON body when there is one (never for HEAD). */
export function parseAnswers(bytes: Buffer, method = 'GET'): FuzzAnswer[] {
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
    const { body, end } = chunked ? dechunk(bytes, start) : { body: bytes.subarray(start, start + Number(length?.[1] ?? 0)), end: start + Number(length?.[1] ?? 0) };
    answers.push({ status: Number(status[1]), body: parseJson(body.toString('utf8')) });
    at = end;
  }
  return answers;
}

function dechunk(bytes: Buffer, from: number): { body: Buffer; end: number } {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return { body: Buffer.concat(parts), end: bytes.length };
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return { body: Buffer.concat(parts), end: bytes.indexOf('\r\n\r\n', lineEnd) + 4 || bytes.length };
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

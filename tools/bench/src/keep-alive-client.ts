// The paced load's HTTP/1.1 client: keep-alive connections over node:net, one request in flight on
// each, requests beyond them waiting in order. It does what the load needs and no more (a status
// code and the end of each answer), because on the 2-vCPU benchmark machine the load generator
// shares the CPUs with the service it measures, and every microsecond it spends is taken from the
// service under test (bench/results/README.md has what undici's Pool cost).
import { connect, type Socket } from 'node:net';

/** Why a request got no answer: `timeout` (none within the time allowed) or `error` (the connection failed). */
export class RequestFailed extends Error {
  constructor(
    readonly reason: 'timeout' | 'error',
    message: string,
  ) {
    super(message);
    this.name = 'RequestFailed';
  }
}

interface Pending {
  bytes: string;
  sentAt: number;
  resolve: (statusCode: number) => void;
  reject: (error: RequestFailed) => void;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = '0\r\n\r\n';
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:\s*chunked/i;
const CLOSE = /\r\nconnection:\s*close/i;

/** One keep-alive connection and the request it is answering, if any. */
class Connection {
  pending: Pending | null = null;
  private closed = false;
  private received: Buffer = Buffer.alloc(0);
  private readonly socket: Socket;

  constructor(
    host: string,
    port: number,
    private readonly onFree: (connection: Connection) => void,
    private readonly onGone: (connection: Connection) => void,
  ) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => this.gone(new RequestFailed('error', 'the connection closed')));
  }

  send(pending: Pending): void {
    this.pending = pending;
    pending.sentAt = performance.now();
    this.socket.write(pending.bytes);
  }

  fail(error: RequestFailed): void {
    this.socket.destroy();
    this.gone(error);
  }

  private gone(error: RequestFailed): void {
    if (this.closed) return;
    this.closed = true;
    const pending = this.pending;
    this.pending = null;
    this.onGone(this);
    pending?.reject(error);
  }

  private read(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    const headEnd = this.received.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const head = this.received.toString('latin1', 0, headEnd);
    const bodyStart = headEnd + HEAD_END.length;
    const length = CONTENT_LENGTH.exec(head);
    const complete = length
      ? this.received.length >= bodyStart + Number(length[1])
      : CHUNKED.test(head) && this.received.toString('latin1', this.received.length - CHUNKED_END.length) === CHUNKED_END;
    if (!complete) return;
    const statusCode = Number(head.slice(9, 12));
    const pending = this.pending;
    this.pending = null;
    this.received = Buffer.alloc(0);
    if (CLOSE.test(head)) this.socket.destroy();
    pending?.resolve(statusCode);
    if (!this.socket.destroyed) this.onFree(this);
  }
}

/**
 * POSTs of JSON bodies to one origin over at most `connections` keep-alive connections. A request
 * without an answer `timeoutMs` after it was written fails with a timeout (its connection is
 * dropped, as it may still be answered).
 */
export class KeepAliveClient {
  private readonly free: Connection[] = [];
  private readonly all = new Set<Connection>();
  private readonly waiting: Pending[] = [];
  private destroyed = false;
  private readonly head: string;
  private readonly sweep: NodeJS.Timeout;
  private readonly host: string;
  private readonly port: number;

  constructor(
    origin: string,
    path: string,
    headers: Record<string, string>,
    private readonly connections: number,
    private readonly timeoutMs: number,
  ) {
    const url = new URL(origin);
    this.host = url.hostname;
    this.port = Number(url.port || 80);
    const lines = Object.entries({ host: url.host, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
    this.head = `POST ${path} HTTP/1.1\r\n${lines.join('')}`;
    this.sweep = setInterval(() => this.failLate(), Math.min(1_000, timeoutMs));
    this.sweep.unref();
  }

  /** Resolves with the answer's status code. */
  post(json: string): Promise<number> {
    return new Promise((resolve, reject) => {
      if (this.destroyed) return reject(new RequestFailed('error', 'the client was closed'));
      const pending: Pending = { bytes: `${this.head}content-length: ${Buffer.byteLength(json)}\r\n\r\n${json}`, sentAt: 0, resolve, reject };
      const connection = this.free.pop() ?? (this.all.size < this.connections ? this.open() : undefined);
      if (connection) connection.send(pending);
      else this.waiting.push(pending);
    });
  }

  destroy(): void {
    this.destroyed = true;
    clearInterval(this.sweep);
    const closed = new RequestFailed('error', 'the client was closed');
    for (const pending of this.waiting.splice(0)) pending.reject(closed);
    for (const connection of [...this.all]) connection.fail(closed);
  }

  private open(): Connection {
    const connection = new Connection(
      this.host,
      this.port,
      (c) => this.next(c),
      (c) => this.drop(c),
    );
    this.all.add(connection);
    return connection;
  }

  private next(connection: Connection): void {
    const pending = this.waiting.shift();
    if (pending) connection.send(pending);
    else this.free.push(connection);
  }

  private drop(connection: Connection): void {
    this.all.delete(connection);
    const at = this.free.indexOf(connection);
    if (at >= 0) this.free.splice(at, 1);
    // A request waiting for a connection gets a new one in place of the one gone.
    if (!this.destroyed && this.waiting.length > 0 && this.all.size < this.connections) this.open().send(this.waiting.shift() as Pending);
  }

  private failLate(): void {
    const now = performance.now();
    for (const connection of this.all) {
      const pending = connection.pending;
      if (pending && now - pending.sentAt > this.timeoutMs) connection.fail(new RequestFailed('timeout', `no answer within ${this.timeoutMs} ms`));
    }
  }
}

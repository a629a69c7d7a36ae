import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { Logger } from 'pino';
import { encodeGsm } from './gsm';
import { DelayQueue } from './delay-queue';
import { CommandId, CommandStatus, encodePdu, isResponse, type Pdu, PduError, PduFramer } from './pdu';
import { SlidingWindowLimiter } from './rate-limiter';
import { messageState, receiptText } from './receipt';
import type { SimulatorState } from './state';
import type { PendingReceipt, SubmitHandler } from './submit-handler';
import { deliverReceiptBody, parseBind, parseSubmitSm, type SubmitSm } from './submit-sm';

export interface SmppServerOptions {
  /** When set, binds must use this system_id and password; otherwise any are accepted. */
  systemId: string;
  password: string;
  /** Delay before each submit_sm_resp. */
  latencyMs: number;
  /** Delay between a submit_sm_resp and its delivery receipt. */
  receiptDelayMs: number;
  /** submit_sm per bind in any sliding second above which ESME_RTHROTTLED is answered (0 = unlimited). */
  maxRatePerSecond: number;
  /** A receipt whose deliver_sm_resp has not come this long after it was sent goes again, as an SMSC would. */
  receiptAckTimeoutMs: number;
}

type BindMode = 'transmitter' | 'receiver' | 'transceiver';

const BIND_MODES: Readonly<Record<number, BindMode>> = {
  [CommandId.bind_transmitter]: 'transmitter',
  [CommandId.bind_receiver]: 'receiver',
  [CommandId.bind_transceiver]: 'transceiver',
};

/** Receipts kept per system_id while no bind of it can receive them. */
const MAX_QUEUED_RECEIPTS = 10_000;
/** How often receipts are checked for a deliver_sm_resp overdue (at most). */
const RECEIPT_ACK_CHECK_MS = 1_000;
/** Delay before resending a receipt the ESME refused (e.g. ESME_RX_T_APPN: it could not store it). */
const RECEIPT_RETRY_MS = 1_000;

interface Session {
  readonly id: number;
  readonly socket: Socket;
  systemId: string | null;
  mode: BindMode | null;
  sequence: number;
  outstanding: number;
  readonly limiter: SlidingWindowLimiter;
  /** Receipts sent and not yet acknowledged, by deliver_sm sequence number, oldest first. */
  readonly unacknowledged: Map<number, { receipt: PendingReceipt; sentAt: number }>;
  /** Mobile-originated deliver_sm bodies sent and not yet acknowledged, by sequence number, oldest first. */
  readonly unacknowledgedMo: Map<number, { body: Buffer; sentAt: number }>;
  /** PDUs written during this tick, sent together at its end. */
  readonly outgoing: Buffer[];
}

const canReceive = (session: Session): boolean => session.mode === 'receiver' || session.mode === 'transceiver';
const canTransmit = (session: Session): boolean => session.mode === 'transmitter' || session.mode === 'transceiver';

/** The SMPP side of the simulator: binds, enquire_link, unbind, submit_sm and delivery receipts. */
export class SmppServer {
  /** The TCP listener, and the TLS one when asked for: one SMSC, whichever way a bind comes in. */
  private readonly servers: Server[] = [];
  private readonly sessions = new Set<Session>();
  /** Delayed work (responses, receipts, retries), one queue per delay. */
  private readonly delayed = new Map<number, DelayQueue>();
  private readonly ackCheck: NodeJS.Timeout;
  private readonly queuedReceipts = new Map<string, PendingReceipt[]>();
  /** Mobile-originated parts waiting for a receiving bind (of any system_id). */
  private queuedMo: Buffer[] = [];
  private nextSessionId = 1;
  /** Until when (epoch ms) binds are refused: an outage begun by dropBinds. */
  private refuseBindsUntil = 0;

  constructor(
    private readonly options: SmppServerOptions,
    private readonly state: SimulatorState,
    private readonly submits: SubmitHandler,
    private readonly logger: Logger,
  ) {
    this.ackCheck = setInterval(() => this.resendOverdue(), Math.min(RECEIPT_ACK_CHECK_MS, Math.max(10, options.receiptAckTimeoutMs / 4)));
    this.ackCheck.unref();
  }

  /** Listens for SMPP over TCP; resolves with the port (useful with port 0). */
  listen(port: number, host: string): Promise<number> {
    return this.listenWith(
      createServer((socket) => this.accept(socket)),
      port,
      host,
    );
  }

  /** Listens for SMPP over TLS with this certificate; the same SMSC as over TCP once the handshake is done. */
  listenTls(port: number, host: string, credentials: { cert: string; key: string }): Promise<number> {
    const server = createTlsServer({ ...credentials, minVersion: 'TLSv1.2' }, (socket) => this.accept(socket));
    server.on('tlsClientError', (error) => this.logger.warn({ event: 'tls_handshake_failed', error: error.message }));
    return this.listenWith(server, port, host);
  }

  private listenWith(server: Server, port: number, host: string): Promise<number> {
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host }, () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops listening and drops every connection at once, as a crashed SMSC would. */
  close(): Promise<void> {
    for (const queue of this.delayed.values()) queue.clear();
    clearInterval(this.ackCheck);
    for (const session of this.sessions) session.socket.destroy();
    const listening = this.servers.filter((server) => server.listening);
    return Promise.all(listening.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => undefined);
  }

  /**
   * An outage, as a carrier's SMSC restarting: every connection is dropped at once (responses and
   * receipts not yet written are lost; receipts not acknowledged wait for the next bind) and binds
   * are refused with ESME_RBINDFAIL for refuseMs. Returns how many connections were dropped.
   */
  dropBinds(refuseMs: number): number {
    this.refuseBindsUntil = Date.now() + refuseMs;
    const dropped = this.sessions.size;
    for (const session of this.sessions) session.socket.destroy();
    this.logger.warn({ event: 'binds_dropped', dropped, refuseMs });
    return dropped;
  }

  private accept(socket: Socket): void {
    const session: Session = {
      id: this.nextSessionId++,
      socket,
      systemId: null,
      mode: null,
      sequence: 0,
      outstanding: 0,
      limiter: new SlidingWindowLimiter(this.options.maxRatePerSecond),
      unacknowledged: new Map(),
      unacknowledgedMo: new Map(),
      outgoing: [],
    };
    this.sessions.add(session);
    socket.setNoDelay(true);
    const framer = new PduFramer();
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const pdu of framer.push(chunk)) this.handle(session, pdu);
      } catch (error) {
        const status = error instanceof PduError ? error.status : CommandStatus.ESME_RSYSERR;
        this.logger.warn({ event: 'bad_pdu', session: session.id, error: String(error) });
        this.write(session, encodePdu(CommandId.generic_nack, status, 0));
        this.end(session);
      }
    });
    socket.on('error', (error) => this.logger.debug({ event: 'socket_error', session: session.id, error: error.message }));
    socket.on('close', () => {
      this.sessions.delete(session);
      this.requeueUnacknowledged(session);
      if (session.mode) this.logger.info({ event: 'disconnected', session: session.id, systemId: session.systemId });
    });
  }

  private handle(session: Session, pdu: Pdu): void {
    const respond = (status: number, body?: Buffer): void =>
      this.write(session, encodePdu((pdu.commandId | 0x80000000) >>> 0, status, pdu.sequence, status === 0 ? body : undefined));
    try {
      if (BIND_MODES[pdu.commandId]) return this.bind(session, pdu, respond);
      switch (pdu.commandId) {
        case CommandId.enquire_link:
          return respond(0);
        case CommandId.unbind:
          respond(0);
          this.end(session);
          return;
        case CommandId.submit_sm:
          return this.submit(session, pdu, respond);
        default:
          if (pdu.commandId === CommandId.deliver_sm_resp) return this.acknowledge(session, pdu);
          if (isResponse(pdu.commandId)) return; // enquire_link_resp, generic_nack
          this.write(session, encodePdu(CommandId.generic_nack, CommandStatus.ESME_RINVCMDID, pdu.sequence));
      }
    } catch (error) {
      if (!(error instanceof PduError)) throw error;
      respond(error.status);
    }
  }

  private bind(session: Session, pdu: Pdu, respond: (status: number, body?: Buffer) => void): void {
    if (session.mode) return respond(CommandStatus.ESME_RALYBND);
    const request = parseBind(pdu.body);
    const { systemId, password } = this.options;
    const refused =
      Date.now() < this.refuseBindsUntil
        ? CommandStatus.ESME_RBINDFAIL
        : systemId && request.systemId !== systemId
          ? CommandStatus.ESME_RINVSYSID
          : password && request.password !== password
            ? CommandStatus.ESME_RINVPASWD
            : 0;
    if (refused) {
      if (refused === CommandStatus.ESME_RBINDFAIL) this.state.stats.binds_refused += 1;
      this.logger.warn({ event: 'bind_refused', session: session.id, systemId: request.systemId, status: refused });
      respond(refused);
      this.end(session);
      return;
    }
    session.systemId = request.systemId;
    session.mode = BIND_MODES[pdu.commandId];
    this.state.stats.binds += 1;
    respond(0, Buffer.from('smsc-simulator\0', 'latin1'));
    this.logger.info({ event: 'bound', session: session.id, systemId: request.systemId, mode: session.mode });
    if (canReceive(session)) {
      this.flushReceipts(request.systemId);
      const waiting = this.queuedMo.splice(0);
      for (const body of waiting) this.sendMobileOriginated(body);
    }
  }

  private submit(session: Session, pdu: Pdu, respond: (status: number, body?: Buffer) => void): void {
    const { stats } = this.state;
    stats.submits += 1;
    if (!canTransmit(session) || session.systemId === null) {
      stats.rejected += 1;
      return respond(CommandStatus.ESME_RINVBNDSTS);
    }
    if (!session.limiter.tryAcquire()) {
      stats.throttled += 1;
      this.logger.debug({ event: 'throttled', session: session.id });
      return respond(CommandStatus.ESME_RTHROTTLED);
    }
    let submit: SubmitSm;
    try {
      submit = parseSubmitSm(pdu.body);
    } catch (error) {
      if (!(error instanceof PduError)) throw error;
      stats.rejected += 1;
      return respond(error.status);
    }
    const result = this.submits.handle(session.systemId, submit);
    session.outstanding += 1;
    stats.max_outstanding = Math.max(stats.max_outstanding, session.outstanding);
    this.after(this.options.latencyMs, () => {
      session.outstanding -= 1;
      respond(result.status, result.messageId === undefined ? undefined : Buffer.from(`${result.messageId}\0`, 'latin1'));
      const { receipt } = result;
      if (receipt) this.after(this.options.receiptDelayMs, () => this.sendReceipt(receipt, session));
    });
  }

  /** To the bind the part came from if it can still receive, else another of its system_id, else later. */
  private sendReceipt(receipt: PendingReceipt, origin?: Session): void {
    const canTake = (session: Session | undefined): session is Session =>
      session !== undefined && this.sessions.has(session) && canReceive(session) && session.systemId === receipt.systemId && session.socket.writable;
    const target = canTake(origin) ? origin : [...this.sessions].find(canTake);
    if (!target) {
      const queue = this.queuedReceipts.get(receipt.systemId) ?? [];
      if (queue.length < MAX_QUEUED_RECEIPTS) queue.push(receipt);
      this.queuedReceipts.set(receipt.systemId, queue);
      return;
    }
    const text = receiptText({ messageId: receipt.messageId, submittedAt: receipt.submittedAt, doneAt: new Date(), stat: receipt.stat, text: receipt.text });
    const body = deliverReceiptBody({
      source: receipt.handset,
      sourceTon: 1,
      destination: receipt.sender,
      destinationTon: receipt.senderTon,
      text: encodeGsm(text),
      receiptedMessageId: receipt.messageId,
      messageState: messageState(receipt.stat),
    });
    target.sequence = target.sequence >= 0x7fffffff ? 1 : target.sequence + 1;
    const sequence = target.sequence;
    target.unacknowledged.set(sequence, { receipt, sentAt: Date.now() });
    this.write(target, encodePdu(CommandId.deliver_sm, 0, sequence, body));
    this.state.stats.receipts_sent += 1;
    if (this.logger.isLevelEnabled('debug')) this.logger.debug({ event: 'receipt', session: target.id, messageId: receipt.messageId, stat: receipt.stat });
  }

  /**
   * Sends a message the handset wrote (deliver_sm, not a receipt) to a receiving bind, or keeps it
   * until one binds; true when it was written at once. Resent like a receipt until acknowledged OK.
   */
  sendMobileOriginated(body: Buffer): boolean {
    const target = [...this.sessions].find((session) => canReceive(session) && session.socket.writable);
    if (!target) {
      this.queuedMo.push(body);
      return false;
    }
    target.sequence = target.sequence >= 0x7fffffff ? 1 : target.sequence + 1;
    target.unacknowledgedMo.set(target.sequence, { body, sentAt: Date.now() });
    this.write(target, encodePdu(CommandId.deliver_sm, 0, target.sequence, body));
    this.state.stats.mo_parts_sent += 1;
    return true;
  }

  /** deliver_sm_resp: OK ends the receipt; an error status means the ESME could not take it, so it comes again. */
  private acknowledge(session: Session, pdu: Pdu): void {
    const mo = session.unacknowledgedMo.get(pdu.sequence);
    if (mo) {
      session.unacknowledgedMo.delete(pdu.sequence);
      if (pdu.status !== 0) this.after(RECEIPT_RETRY_MS, () => this.sendMobileOriginated(mo.body));
      return;
    }
    const pending = session.unacknowledged.get(pdu.sequence);
    if (!pending) return;
    session.unacknowledged.delete(pdu.sequence);
    if (pdu.status !== 0) this.after(RECEIPT_RETRY_MS, () => this.sendReceipt(pending.receipt));
  }

  /** Receipts sent receiptAckTimeoutMs ago and still unacknowledged go again. */
  private resendOverdue(): void {
    const overdue = Date.now() - this.options.receiptAckTimeoutMs;
    for (const session of this.sessions) {
      for (const [sequence, pending] of session.unacknowledged) {
        if (pending.sentAt > overdue) break;
        session.unacknowledged.delete(sequence);
        this.sendReceipt(pending.receipt);
      }
      for (const [sequence, pending] of session.unacknowledgedMo) {
        if (pending.sentAt > overdue) break;
        session.unacknowledgedMo.delete(sequence);
        this.sendMobileOriginated(pending.body);
      }
    }
  }

  /** A bind that dropped with receipts unacknowledged: they go to another bind, or wait for the next. */
  private requeueUnacknowledged(session: Session): void {
    const pending = [...session.unacknowledged.values()];
    session.unacknowledged.clear();
    for (const { receipt } of pending) this.sendReceipt(receipt);
    const mo = [...session.unacknowledgedMo.values()];
    session.unacknowledgedMo.clear();
    for (const { body } of mo) this.sendMobileOriginated(body);
  }

  private flushReceipts(systemId: string): void {
    const queue = this.queuedReceipts.get(systemId);
    this.queuedReceipts.delete(systemId);
    for (const receipt of queue ?? []) this.sendReceipt(receipt);
  }

  /** Runs fn after ms (at once when 0); pending runs are dropped by close(). */
  private after(ms: number, fn: () => void): void {
    if (ms <= 0) return fn();
    let queue = this.delayed.get(ms);
    if (!queue) this.delayed.set(ms, (queue = new DelayQueue(ms)));
    queue.push(fn);
  }

  /** Ends the session's socket once what was written before has left (immediates run in order). */
  private end(session: Session): void {
    setImmediate(() => session.socket.end());
  }

  /**
   * PDUs for a session leave together once the event loop has run what fell due: one write for
   * all the responses and receipts whose timers fired together, instead of a system call each (a
   * carrier's own SMSC batches its socket writes too). setImmediate, not nextTick: Node runs
   * nextTick callbacks between one timer's callback and the next.
   */
  private write(session: Session, pdu: Buffer): void {
    if (session.outgoing.push(pdu) > 1) return;
    setImmediate(() => {
      const pdus = session.outgoing.splice(0);
      if (session.socket.writable) session.socket.write(pdus.length === 1 ? pdus[0] : Buffer.concat(pdus));
    });
  }
}

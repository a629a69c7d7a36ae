import { connect as openSession, type PDU, type Session } from 'smpp';
import { reconnectDelay } from './backoff';
import { coalesceWrites } from './coalesced-writes';
import { CommandStatus, describeStatus } from './command-status';
import { receiptOf } from './deliver-sm';
import type { DeliveryReceipt } from './delivery-receipt';
import { useTableGsmDecoding } from './gsm-text-decoding';
import { mobileOriginatedOf, type MobileOriginatedPdu } from './mobile-originated';
import { deliverSmRespPdu, submitSmPdu } from './outgoing-pdus';
import { readPdusByChunk } from './pdu-reader';
import { type OutgoingPart, type SubmitOutcome, submitSmParameters } from './submit-sm';
import { noResponse, SubmitWindow } from './submit-window';
import { certificateRefusal, smppSocketOptions, type SmppTransport } from './smpp-transport';
import type { TrafficPolicy } from './traffic-policy';

export interface SmppConnectionOptions {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType?: string;
  /** Plain TCP when absent; with `tls: true` the SMSC's certificate must verify or nothing is sent. */
  transport?: SmppTransport;
  /** Most submit_sm waiting for their response at once (default 10). */
  windowSize: number;
  /** Throughput limit of this bind in submit_sm per second; 0 = unlimited. */
  maxPerSecond: number;
  /** How often enquire_link is sent while bound (default 30000). */
  enquireLinkMs: number;
  /** How long a response (bind, submit_sm, enquire_link, unbind) may take, and a submit may wait for a bind (default 10000). */
  responseTimeoutMs: number;
  reconnect: { initialDelayMs: number; maxDelayMs: number };
  /** The dispatcher's traffic policy: what campaign parts may take of the window while others flow. */
  traffic: TrafficPolicy;
}

/**
 * The defaults of everything but the address, the credentials and the traffic policy, for a
 * connection made without settings; the sms-dispatcher passes its own (SMPP_WINDOW, 50).
 */
export const SMPP_CONNECTION_DEFAULTS = {
  windowSize: 10,
  maxPerSecond: 0,
  enquireLinkMs: 30_000,
  responseTimeoutMs: 10_000,
  reconnect: { initialDelayMs: 1_000, maxDelayMs: 30_000 },
} satisfies Partial<SmppConnectionOptions>;

export interface SmppLogger {
  info(o: object): void;
  warn(o: object): void;
  error(o: object): void;
}

/** May return a promise: the receipt is acknowledged (deliver_sm_resp) when it settles, refused when it rejects. */
export type ReceiptListener = (receipt: DeliveryReceipt) => unknown;

/** Like ReceiptListener, for a deliver_sm that is not a receipt: acknowledged once it settles, refused if it rejects. */
export type MobileOriginatedListener = (message: MobileOriginatedPdu) => unknown;

export type SmppBindState = 'idle' | 'connecting' | 'bound' | 'closing' | 'closed';
type State = SmppBindState;

/** bind_transceiver refusals that no retry will fix. */
const FATAL_BIND_STATUSES = new Set<number>([CommandStatus.ESME_RINVPASWD, CommandStatus.ESME_RINVSYSID]);

const silentLogger: SmppLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * One ESME bind (bind_transceiver) to an SMSC: a window of outstanding submit_sm, a token-bucket
 * throughput limit, enquire_link keep-alive, and reconnection with exponential backoff and jitter.
 */
export class SmppConnection {
  private state: State = 'idle';
  private stateSince = new Date();
  private stateListener?: () => void;
  private session: Session | null = null;
  private readonly window: SubmitWindow;
  private readonly listeners: ReceiptListener[] = [];
  private readonly moListeners: MobileOriginatedListener[] = [];
  private connected?: Promise<void>;
  private settleConnect?: (error?: Error) => void;
  private attempt = 0;
  private reconnectTimer?: NodeJS.Timeout;
  private bindTimer?: NodeJS.Timeout;
  private enquireTimer?: NodeJS.Timeout;
  private enquireDeadline?: NodeJS.Timeout;

  constructor(
    private readonly options: SmppConnectionOptions,
    private readonly logger: SmppLogger = silentLogger,
  ) {
    const { windowSize, maxPerSecond, responseTimeoutMs, host, port, traffic } = options;
    this.window = new SubmitWindow({ windowSize, maxPerSecond, responseTimeoutMs, target: `${host}:${port}`, traffic });
    useTableGsmDecoding();
  }

  /**
   * Connects and binds; resolves once bound. Until then it retries with backoff, except when the
   * SMSC refuses the system_id or password: then it rejects and the connection is closed.
   */
  connect(): Promise<void> {
    if (this.state === 'closing' || this.state === 'closed') return Promise.reject(new Error('SmppConnection is closed'));
    this.connected ??= new Promise<void>((resolve, reject) => {
      this.settleConnect = (error) => {
        this.settleConnect = undefined;
        if (error) reject(error);
        else resolve();
      };
      this.enter('connecting');
      const { transport, host, port } = this.options;
      if (transport?.tls && transport.rejectUnauthorized === false) this.logger.warn({ event: 'smpp_tls_unverified', host, port });
      this.open();
    });
    return this.connected;
  }

  isBound(): boolean {
    return this.state === 'bound';
  }

  /** Where the bind is and since when, for the operators' view of the binds. */
  status(): { target: string; state: SmppBindState; since: Date } {
    return { target: `${this.options.host}:${this.options.port}`, state: this.state, since: this.stateSince };
  }

  /** submit_sm awaiting their response, and how many may. */
  windowUse(): { inUse: number; size: number } {
    return { inUse: this.window.outstanding, size: this.options.windowSize };
  }

  /** Called after each change of state (bound, lost, closed); one listener. */
  onStateChange(listener: () => void): void {
    this.stateListener = listener;
  }

  private enter(state: State): void {
    if (state === this.state) return;
    this.state = state;
    this.stateSince = new Date();
    this.stateListener?.();
  }

  /**
   * Submits one part once a window slot and a token are free, waiting up to responseTimeoutMs for
   * a bind when there is none. Never rejects: failures are outcomes.
   */
  submit(part: OutgoingPart): Promise<SubmitOutcome> {
    if (this.state === 'closing' || this.state === 'closed') return Promise.resolve(noResponse('the connection is closed'));
    const built = submitSmParameters(part);
    return built.ok ? this.window.submit(built.parameters, part.lane) : Promise.resolve(built.outcome);
  }

  /**
   * Passes on every delivery receipt, even one that comes before its submit_sm_resp (correlate by
   * carrierMessageId). The deliver_sm is answered OK once the listeners return (or their promises
   * resolve), and ESME_RX_T_APPN, for the SMSC to try again later, when one throws or rejects.
   */
  onReceipt(listener: ReceiptListener): void {
    this.listeners.push(listener);
  }

  /**
   * Passes on every mobile-originated deliver_sm (one part of a message a handset sent). It is
   * acknowledged once the listeners settle, with ESME_RX_T_APPN when one rejects (the SMSC sends
   * it again). Without a listener it is acknowledged and dropped, as before.
   */
  onMobileOriginated(listener: MobileOriginatedListener): void {
    this.moListeners.push(listener);
  }

  /** Sends no more; waits (up to responseTimeoutMs) for outstanding responses; unbinds; disconnects. */
  async close(): Promise<void> {
    if (this.state === 'closed' || this.state === 'closing') return;
    const wasBound = this.state === 'bound';
    this.enter('closing');
    clearTimeout(this.reconnectTimer);
    this.stopTimers();
    this.settleConnect?.(new Error('SmppConnection closed before it was bound'));
    this.window.drop('the connection was closed before the part was sent');
    const session = this.session;
    if (session && wasBound) {
      await this.until(() => this.window.outstanding === 0, this.options.responseTimeoutMs);
      await this.unbind(session);
    } else {
      session?.destroy();
    }
    this.session = null;
    await this.disconnect(session);
    this.window.suspend('the connection was closed before the response came');
    this.enter('closed');
    this.logger.info({ event: 'smpp_closed', host: this.options.host, port: this.options.port });
  }

  private open(): void {
    const { host, port, responseTimeoutMs, transport } = this.options;
    const tls = transport?.tls === true;
    const session = openSession(smppSocketOptions(host, port, transport));
    // Nagle's algorithm held each submit_sm back until the previous one was acknowledged, which
    // with a window of outstanding submits made the window's round trip, not the carrier, the
    // limit; PDUs written together still leave together (coalesceWrites).
    session.socket.setNoDelay(true);
    coalesceWrites(session.socket);
    readPdusByChunk(session);
    this.session = session;
    // A TCP connect or a bind that hangs counts as a failed attempt.
    this.bindTimer = setTimeout(() => {
      this.logger.warn({ event: 'smpp_bind_timeout', host, port, timeoutMs: responseTimeoutMs });
      session.destroy();
    }, responseTimeoutMs);
    // Over TLS the bind (and its password) waits for the handshake, and so for the certificate's verification.
    session.on(tls ? 'secureConnect' : 'connect', () => this.bind(session));
    session.on('error', (error: Error) => {
      const refusal = tls ? certificateRefusal(error) : undefined;
      if (refusal) return this.onCertificateRefused(session, refusal, error);
      this.logger.warn({ event: 'smpp_socket_error', host, port, tls, error: error.message });
      session.destroy();
    });
    session.on('close', () => this.onClose(session));
    session.on('deliver_sm', (pdu: PDU) => this.onDeliverSm(session, pdu));
    session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: PDU) => {
      this.logger.warn({ event: 'smpp_unbind_by_smsc', host, port });
      session.send(pdu.response());
      session.close();
    });
  }

  private bind(session: Session): void {
    const { systemId, password, systemType = '', host, port } = this.options;
    session.bind_transceiver({ system_id: systemId, password, system_type: systemType }, (response) => {
      if (session !== this.session || this.state !== 'connecting') return;
      clearTimeout(this.bindTimer);
      const status = response.command_status;
      if (status === CommandStatus.ESME_ROK) return this.onBound(session);
      const fatal = FATAL_BIND_STATUSES.has(status) && this.settleConnect !== undefined;
      this.logger.error({ event: 'smpp_bind_refused', host, port, systemId, status: describeStatus(status), retrying: !fatal });
      if (!fatal) return session.destroy();
      this.settleConnect?.(new Error(`bind_transceiver to ${host}:${port} refused: ${describeStatus(status)}`));
      void this.close();
    });
  }

  /**
   * The SMSC's certificate did not verify: nothing was sent, and no plain TCP is tried instead.
   * Like a refused password, it ends the first connect (a configuration to mend); a bind that had
   * been bound before keeps retrying with backoff, as the carrier may be rotating its certificate.
   */
  private onCertificateRefused(session: Session, reason: string, error: Error): void {
    const { host, port } = this.options;
    const fatal = this.settleConnect !== undefined;
    this.logger.error({ event: 'smpp_tls_certificate_refused', host, port, reason, error: error.message, retrying: !fatal });
    session.destroy();
    if (!fatal || session !== this.session) return;
    this.settleConnect?.(new Error(`TLS to ${host}:${port}: the SMSC's certificate was refused (${reason}: ${error.message})`));
    void this.close();
  }

  private onBound(session: Session): void {
    this.enter('bound');
    this.attempt = 0;
    const { host, port, systemId, transport } = this.options;
    this.logger.info({ event: 'smpp_bound', host, port, systemId, tls: transport?.tls === true });
    this.settleConnect?.();
    this.enquireTimer = setInterval(() => this.enquireLink(session), this.options.enquireLinkMs);
    this.window.resume((parameters, onResponse) => session.send(submitSmPdu(parameters), onResponse));
  }

  private onClose(session: Session): void {
    if (session !== this.session) return;
    this.session = null;
    this.stopTimers();
    this.window.suspend('the connection was lost before the response came');
    if (this.state === 'closing' || this.state === 'closed') return;
    if (this.state === 'bound') this.logger.warn({ event: 'smpp_connection_lost', host: this.options.host, port: this.options.port });
    this.enter('connecting');
    this.reconnectTimer = setTimeout(() => this.open(), reconnectDelay(this.attempt++, this.options.reconnect));
  }

  /** Keep-alive: an enquire_link left unanswered for responseTimeoutMs means the link is dead. */
  private enquireLink(session: Session): void {
    if (this.enquireDeadline) return;
    this.enquireDeadline = setTimeout(() => {
      this.logger.warn({ event: 'smpp_enquire_link_timeout', host: this.options.host, port: this.options.port });
      session.destroy();
    }, this.options.responseTimeoutMs);
    session.enquire_link({}, () => {
      clearTimeout(this.enquireDeadline);
      this.enquireDeadline = undefined;
    });
  }

  private onDeliverSm(session: Session, pdu: PDU): void {
    const receipt = receiptOf(pdu);
    if (receipt === undefined && this.moListeners.length > 0) return this.onMobileOriginatedPdu(session, pdu);
    if (!receipt) {
      this.logger[receipt === null ? 'warn' : 'info']({
        event: receipt === null ? 'smpp_receipt_unreadable' : 'smpp_deliver_sm_ignored',
        esmClass: pdu['esm_class'],
        source: pdu['source_addr'],
      });
      session.send(pdu.response());
      return;
    }
    const handled = this.listeners.map(async (listener) => listener(receipt));
    void Promise.allSettled(handled).then((results) => {
      const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failure) this.logger.error({ event: 'smpp_receipt_listener_failed', carrierMessageId: receipt.carrierMessageId, error: String(failure.reason) });
      session.send(deliverSmRespPdu(pdu.sequence_number, failure ? CommandStatus.ESME_RX_T_APPN : 0));
    });
  }

  private onMobileOriginatedPdu(session: Session, pdu: PDU): void {
    const message = mobileOriginatedOf(pdu);
    if (!message) {
      this.logger.warn({ event: 'smpp_mo_unreadable', source: pdu['source_addr'] });
      session.send(deliverSmRespPdu(pdu.sequence_number, 0));
      return;
    }
    const handled = this.moListeners.map(async (listener) => listener(message));
    void Promise.allSettled(handled).then((results) => {
      const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failure) this.logger.error({ event: 'smpp_mo_listener_failed', source: message.source, error: String(failure.reason) });
      session.send(deliverSmRespPdu(pdu.sequence_number, failure ? CommandStatus.ESME_RX_T_APPN : 0));
    });
  }

  private stopTimers(): void {
    clearTimeout(this.bindTimer);
    clearInterval(this.enquireTimer);
    clearTimeout(this.enquireDeadline);
    this.enquireTimer = undefined;
    this.enquireDeadline = undefined;
  }

  /** Sends unbind and waits (up to responseTimeoutMs) for unbind_resp. */
  private unbind(session: Session): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.options.responseTimeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      if (!session.unbind({}, done)) done();
    });
  }

  /** Ends the socket and waits for it to close (destroying it after responseTimeoutMs). */
  private disconnect(session: Session | null): Promise<void> {
    if (!session || session.socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => session.destroy(), this.options.responseTimeoutMs);
      session.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      session.close();
    });
  }

  private until(condition: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    return new Promise((resolve) => {
      const check = (): void => {
        if (condition() || Date.now() >= deadline) resolve();
        else setTimeout(check, 10);
      };
      check();
    });
  }
}

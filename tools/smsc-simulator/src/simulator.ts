import pino, { type Logger } from 'pino';
import { createHttpApi, listenHttp, type MobileOriginatedAnswer } from './http-api';
import { mobileOriginatedBodies, type MobileOriginated } from './mobile-originated';
import type { InboxMessage } from './reassembly';
import { SmppServer } from './smpp-server';
import { SimulatorState, type SimulatorStats } from './state';
import { messageIdGenerator, SubmitHandler } from './submit-handler';
import { selfSignedCredentials, type TlsCredentials } from './tls-credentials';

export interface SmscSimulatorOptions {
  /** Address both servers bind to. */
  host: string;
  /** SMPP port; 0 = any free port (see RunningSmscSimulator.smppPort). */
  smppPort: number;
  /** Inspection API port; 0 = any free port. */
  httpPort: number;
  /** SMPP over TLS port; undefined = none, 0 = any free port (see RunningSmscSimulator.tlsPort). */
  tlsPort?: number;
  /** The TLS listener's certificate and key; a self-signed pair is made at start without them. */
  tlsCredentials?: TlsCredentials;
  /** When non-empty, binds must use this system_id / password; empty = any. */
  systemId: string;
  password: string;
  receiptDelayMs: number;
  /** Fraction (0..1) of accepted parts whose receipt says UNDELIV err:001. */
  failureRate: number;
  /** Fraction (0..1) of submit_sm answered ESME_RSUBMITFAIL. */
  rejectRate: number;
  /** Delay before each submit_sm_resp. */
  latencyMs: number;
  /** submit_sm per bind in any sliding second above which ESME_RTHROTTLED is answered; 0 = unlimited. */
  maxRatePerSecond: number;
  /** A receipt whose deliver_sm_resp has not come this long after it was sent goes again. */
  receiptAckTimeoutMs: number;
  logger: Logger;
  /** For the failure and reject rates. */
  random: () => number;
}

/** decisions.md "Development simulators": no failures, no throttling, answered at once, receipts after about 200 ms. */
export const SIMULATOR_DEFAULTS: Omit<SmscSimulatorOptions, 'logger'> = {
  host: '127.0.0.1',
  smppPort: 2775,
  httpPort: 2776,
  systemId: '',
  password: '',
  receiptDelayMs: 200,
  failureRate: 0,
  rejectRate: 0,
  latencyMs: 0,
  maxRatePerSecond: 0,
  receiptAckTimeoutMs: 10_000,
  random: Math.random,
};

export interface RunningSmscSimulator {
  host: string;
  smppPort: number;
  httpPort: number;
  /** Where SMPP over TLS listens, when it does. */
  tlsPort?: number;
  /** The TLS listener's certificate (PEM): a client that takes it as its CA trusts a self-signed one. */
  tlsCertificate?: string;
  stats(): SimulatorStats;
  /** What GET /messages shows. */
  messages(to?: string): InboxMessage[];
  /** An outage: drops every SMPP connection and refuses binds for refuseMs (POST /binds/drop). */
  dropBinds(refuseMs: number): number;
  /** The handset sends a message to the platform (POST /mo). */
  sendMobileOriginated(mo: MobileOriginated): MobileOriginatedAnswer;
  /** Closes both servers and drops every SMPP connection; pending responses and receipts are lost. */
  stop(): Promise<void>;
}

/** Starts the SMSC simulator in this process (what main.ts runs, and what tests start with port 0). */
export async function startSmscSimulator(overrides: Partial<SmscSimulatorOptions> = {}): Promise<RunningSmscSimulator> {
  const options: SmscSimulatorOptions = { ...SIMULATOR_DEFAULTS, logger: pino({ level: 'silent' }), ...overrides };
  const { logger, host } = options;
  const state = new SimulatorState();
  const submits = new SubmitHandler(state, options, logger);
  const smpp = new SmppServer(options, state, submits, logger);
  const moIds = messageIdGenerator();
  let moReference = Math.floor(options.random() * 0x10000);
  const sendMobileOriginated = (mo: MobileOriginated): MobileOriginatedAnswer => {
    moReference = (moReference + 1) & 0xffff;
    const parts = mobileOriginatedBodies(mo, moReference, moIds);
    const sent = parts.map((part) => smpp.sendMobileOriginated(part.body)).every(Boolean);
    logger.info({ event: 'mo_sent', from: mo.from, to: mo.to, parts: parts.length, sent });
    return { parts: parts.length, message_ids: parts.map((part) => part.messageId), sent };
  };
  const http = createHttpApi(state, { clearMessages: () => submits.clear(), dropBinds: (refuseMs) => smpp.dropBinds(refuseMs), sendMobileOriginated });
  const tlsCredentials = options.tlsPort === undefined ? undefined : (options.tlsCredentials ?? (await selfSignedCredentials(host)));
  const smppPort = await smpp.listen(options.smppPort, host);
  let httpPort: number;
  let tlsPort: number | undefined;
  try {
    if (options.tlsPort !== undefined && tlsCredentials) tlsPort = await smpp.listenTls(options.tlsPort, host, tlsCredentials);
    httpPort = await listenHttp(http, options.httpPort, host);
  } catch (error) {
    await smpp.close();
    throw error;
  }
  return {
    host,
    smppPort,
    httpPort,
    tlsPort,
    tlsCertificate: tlsCredentials?.cert,
    stats: () => ({ ...state.stats }),
    messages: (to) => state.messages(to),
    dropBinds: (refuseMs) => smpp.dropBinds(refuseMs),
    sendMobileOriginated,
    stop: async () => {
      http.closeAllConnections();
      await Promise.all([smpp.close(), new Promise<void>((resolve) => http.close(() => resolve()))]);
    },
  };
}

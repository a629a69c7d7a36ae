import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import {
  CarrierBindSet,
  SMPP_CONNECTION_DEFAULTS,
  TrafficPolicy,
  type DeliveryReceipt,
  type MobileOriginatedPdu,
  type OutgoingPart,
  type SmppTransport,
  type SmscBindStatus,
  type SubmitAnsweredListener,
  type SubmitOutcome,
} from '@mp/carrier';
import { ensureDefaultCarrier, RoutingReader } from '@mp/routing';
import { isRouteClass, planRoute, type PlannedCarrier } from '@mp/routing-domain';
import { DataSource } from 'typeorm';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { CarrierHealthTracker, HEALTH_BUCKET_MS, type CarrierHealthSnapshot } from './carrier-health-tracker';
import { carrierTable, environmentCarriers, type CarrierTable } from './carrier-table';
import { smscTransport } from './smsc-transport';

/** A receipt with the carrier whose bind it came over (the part it answers is that carrier's). */
export type CarrierDeliveryReceipt = DeliveryReceipt & { carrier: string };

/** A receipt, the carrier it came over, and ms since its submit's response when that was timed. */
type ReceiptTimedListener = (receipt: DeliveryReceipt, carrier: string, latencyMs: number | undefined) => void;

/** Resolves once the receipt is stored: only then is the deliver_sm acknowledged. */
type ReceiptListener = (receipt: CarrierDeliveryReceipt) => Promise<void>;

/**
 * The binds to the carriers and the routes to them. With CARRIERS_FROM=database the carriers and
 * routes are the operators' (libs/routing), read again whenever the routing version moves, and
 * binds are opened, closed and reopened to match without a restart; with `environment` they are
 * the SMSC_* variables' (docs/decisions/0057-carrier-routing-in-the-dispatcher.md).
 */
@Injectable()
export class CarrierPool implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('CarrierPool');
  private readonly binds: CarrierBindSet;
  private readonly tls: SmppTransport;
  private readonly reader: RoutingReader;
  private table: CarrierTable = carrierTable([], [], { tls: true });
  private version: bigint | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly health = new CarrierHealthTracker();
  private healthTimer: NodeJS.Timeout | undefined;
  private refreshing = false;
  private readonly receiptTimed: ReceiptTimedListener[] = [];
  private closing: Promise<void> | undefined;

  constructor(
    private readonly config: SmsDispatcherEnv,
    traffic: TrafficPolicy,
    private readonly db: DataSource,
  ) {
    const log = {
      info: (o: object) => this.logger.log(o),
      warn: (o: object) => this.logger.warn(o),
      error: (o: object) => this.logger.error(o),
    };
    this.tls = smscTransport({ ...config, SMSC_TLS: true });
    this.reader = new RoutingReader(db);
    const { windowSize: _window, maxPerSecond: _rate, ...shared } = SMPP_CONNECTION_DEFAULTS;
    this.binds = new CarrierBindSet(
      { ...shared, traffic },
      (carrier, error) => {
        if (this.binds.has(carrier)) this.logger.error({ msg: 'SMPP bind failed', carrier, err: error });
      },
      log,
    );
    this.binds.onSubmitAnswered((carrier, _bind, outcome) => this.health.submitAnswered(carrier, outcome));
    this.binds.onReceipt((receipt, carrier) => {
      const latencyMs = this.health.receiptArrived(carrier, receipt);
      for (const listener of this.receiptTimed) listener(receipt, carrier, latencyMs);
    });
  }

  /** Reads the carriers and opens their binds in the background: a submit waits for a bind, and the job retries if none comes. */
  async onModuleInit(): Promise<void> {
    this.healthTimer = setInterval(() => this.judgeHealth(), HEALTH_BUCKET_MS);
    this.healthTimer.unref();
    if (this.config.CARRIERS_FROM === 'environment') {
      const { carriers, routes } = environmentCarriers(this.config);
      this.install(carrierTable(carriers, routes, this.tls));
      return;
    }
    const { created } = await ensureDefaultCarrier(this.db, this.config);
    if (created.length > 0) this.logger.log({ msg: 'carriers created from SMSC_*', carriers: created });
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.config.CARRIER_POLL_MS);
    this.timer.unref();
  }

  /** Reads carriers and routes again when the routing version moved. */
  async refresh(): Promise<void> {
    if (this.refreshing || this.closing) return;
    this.refreshing = true;
    try {
      const { version } = await this.reader.version();
      if (version === this.version) return;
      const snapshot = await this.reader.snapshot();
      if (this.closing) return;
      this.install(carrierTable(snapshot.carriers, snapshot.routes, this.tls));
      this.version = snapshot.version;
    } catch (error) {
      this.logger.warn({ msg: 'could not read carriers and routes; keeping the ones we have', err: error });
    } finally {
      this.refreshing = false;
    }
  }

  /** A carrier whose delivered share collapsed gets probe traffic only until it recovers (planRoute). */
  private judgeHealth(): void {
    for (const { carrier, degraded, reason, health } of this.health.evaluate()) {
      const log = {
        msg: degraded ? 'carrier degraded' : 'carrier recovered',
        carrier,
        reason,
        deliveredShare: health.deliveredShare,
        receipts: health.receipts,
      };
      if (degraded) this.logger.warn(log);
      else this.logger.log(log);
    }
  }

  private install(table: CarrierTable): void {
    this.table = table;
    const changes = this.binds.apply(table.binds);
    if (changes.opened.length + changes.closed.length + changes.reopened.length > 0) this.logger.log({ msg: 'carrier binds changed', ...changes });
  }

  /**
   * The carriers to try for a part, in order: the routes' candidates for the number and route
   * class, least cost among the bound ones first (planRoute). Empty when no route matches.
   */
  plan(destination: string, route: string): PlannedCarrier[] {
    const routeClass = isRouteClass(route) ? route : 'auto';
    const number = destination.startsWith('+') ? destination : `+${destination}`;
    const candidates = this.table.candidates(number, routeClass);
    if (candidates.length === 0) return [];
    const statuses = candidates.map(({ carrierId }) => ({
      id: carrierId,
      enabled: this.table.enabled.get(carrierId) ?? false,
      bound: this.binds.isCarrierBound(carrierId),
      degraded: this.health.isDegraded(carrierId),
    }));
    return planRoute(candidates, statuses, { random: Math.random }).carriers;
  }

  submit(carrier: string, part: OutgoingPart): Promise<SubmitOutcome> {
    return this.binds.submit(carrier, part);
  }

  /** At least one of the carrier's binds is bound. */
  isCarrierBound(carrier: string): boolean {
    return this.binds.isCarrierBound(carrier);
  }

  onReceipt(listener: ReceiptListener): void {
    this.binds.onReceipt((receipt, carrier) => listener({ ...receipt, carrier }));
  }

  /** Each receipt with the carrier it came from and, for a final one of a recent submit, its latency (CarrierHealthTracker). */
  onReceiptTimed(listener: ReceiptTimedListener): void {
    this.receiptTimed.push(listener);
  }

  /** Each mobile-originated part with its carrier; its deliver_sm is acknowledged once the listener's promise settles (refused if it rejects). */
  onMobileOriginated(listener: (message: MobileOriginatedPdu, smsc: string) => Promise<void>): void {
    this.binds.onMobileOriginated(listener);
  }

  onSubmitAnswered(listener: SubmitAnsweredListener): void {
    this.binds.onSubmitAnswered(listener);
  }

  /** What this process counted of each carrier over the health window, with its verdict (for the operators and metrics). */
  healthSnapshot(): CarrierHealthSnapshot[] {
    return this.health.snapshot();
  }

  windows(): ReturnType<CarrierBindSet['windows']> {
    return this.binds.windows();
  }

  isBound(): boolean {
    return this.binds.isBound();
  }

  bindStates(): SmscBindStatus[] {
    return this.binds.bindStates();
  }

  onBindStateChange(listener: () => void): void {
    this.binds.onBindStateChange(listener);
  }

  /**
   * Resolves once every bind has had the responses of its submits and unbound. At shutdown the
   * queue workers have stopped first, so nothing is being submitted; receipts stop with the binds.
   */
  close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.closing ??= this.binds.close();
    return this.closing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.close();
  }
}

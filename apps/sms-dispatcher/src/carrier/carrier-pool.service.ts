import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import {
  CarrierRoutes,
  SMPP_CONNECTION_DEFAULTS,
  TrafficPolicy,
  type DeliveryReceipt,
  type MobileOriginatedPdu,
  type OutgoingPart,
  type SmscBindStatus,
  type SmscTarget,
  type SubmitAnsweredListener,
  type SubmitOutcome,
} from '@mp/carrier';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { smscTransport } from './smsc-transport';

/** Resolves once the receipt is stored: only then is the deliver_sm acknowledged. */
type ReceiptListener = (receipt: DeliveryReceipt) => Promise<void>;

/** The SMSC each route goes to, from the configuration; a route's own SMSC is reached as the default one is (SMSC_TLS*). */
export function smscTargets(config: SmsDispatcherEnv): { defaultSmsc: SmscTarget; routes: Record<string, SmscTarget> } {
  const transport = smscTransport(config);
  const over = transport.tls ? { transport } : {};
  const defaultSmsc: SmscTarget = { host: config.SMSC_HOST, port: config.SMSC_PORT, systemId: config.SMSC_SYSTEM_ID, password: config.SMSC_PASSWORD, ...over };
  const routes: Record<string, SmscTarget> = {};
  const own = {
    standard: [config.SMSC_STANDARD_HOST, config.SMSC_STANDARD_PORT, config.SMSC_STANDARD_SYSTEM_ID, config.SMSC_STANDARD_PASSWORD],
    premium: [config.SMSC_PREMIUM_HOST, config.SMSC_PREMIUM_PORT, config.SMSC_PREMIUM_SYSTEM_ID, config.SMSC_PREMIUM_PASSWORD],
  } as const;
  for (const [route, [host, port, systemId, password]] of Object.entries(own)) {
    if (host === undefined) continue;
    routes[route] = { host, port: port ?? defaultSmsc.port, systemId: systemId ?? defaultSmsc.systemId, password: password ?? defaultSmsc.password, ...over };
  }
  return { defaultSmsc, routes };
}

/** The binds to the SMSCs: a part goes to its route's SMSC; receipts come back from any. */
@Injectable()
export class CarrierPool implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('CarrierPool');
  private readonly carriers: CarrierRoutes;
  private closing: Promise<void> | undefined;

  constructor(config: SmsDispatcherEnv, traffic: TrafficPolicy) {
    const log = {
      info: (o: object) => this.logger.log(o),
      warn: (o: object) => this.logger.warn(o),
      error: (o: object) => this.logger.error(o),
    };
    this.carriers = new CarrierRoutes(
      {
        ...smscTargets(config),
        binds: config.SMPP_BINDS,
        connection: { ...SMPP_CONNECTION_DEFAULTS, windowSize: config.SMPP_WINDOW, maxPerSecond: config.SMPP_MAX_PER_SECOND, traffic },
      },
      log,
    );
  }

  /** Binds in the background: a submit waits for a bind, and the job retries if none comes. */
  onModuleInit(): void {
    this.carriers.connect((error) => this.logger.error({ msg: 'SMPP bind failed', err: error }));
  }

  submit(route: string, part: OutgoingPart): Promise<SubmitOutcome> {
    return this.carriers.submit(route, part);
  }

  onReceipt(listener: ReceiptListener): void {
    this.carriers.onReceipt(listener);
  }

  /** Each receipt with the SMSC it came from, for metrics (those not stored are sent again: see onReceipt). */
  onReceiptFrom(listener: (receipt: DeliveryReceipt, smsc: string) => void): void {
    this.carriers.onReceipt(listener);
  }

  /** Each mobile-originated part with its SMSC; its deliver_sm is acknowledged once the listener's promise settles (refused if it rejects). */
  onMobileOriginated(listener: (message: MobileOriginatedPdu, smsc: string) => Promise<void>): void {
    this.carriers.onMobileOriginated(listener);
  }

  onSubmitAnswered(listener: SubmitAnsweredListener): void {
    this.carriers.onSubmitAnswered(listener);
  }

  windows(): ReturnType<CarrierRoutes['windows']> {
    return this.carriers.windows();
  }

  isBound(): boolean {
    return this.carriers.isBound();
  }

  bindStates(): SmscBindStatus[] {
    return this.carriers.bindStates();
  }

  onBindStateChange(listener: () => void): void {
    this.carriers.onBindStateChange(listener);
  }

  /**
   * Resolves once every bind has had the responses of its submits and unbound. At shutdown the
   * queue workers have stopped first, so nothing is being submitted; receipts stop with the binds.
   */
  close(): Promise<void> {
    this.closing ??= this.carriers.close();
    return this.closing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.close();
  }
}

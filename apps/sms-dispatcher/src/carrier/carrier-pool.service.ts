import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { SMPP_CONNECTION_DEFAULTS, SmppConnection, type DeliveryReceipt, type OutgoingPart, type SubmitOutcome } from '@mp/carrier';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';

/** Resolves once the receipt is stored: only then is the deliver_sm acknowledged. */
type ReceiptListener = (receipt: DeliveryReceipt) => Promise<void>;

/** The binds to the SMSC; parts go round-robin over them, receipts come back from any. */
@Injectable()
export class CarrierPool implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('CarrierPool');
  private readonly connections: SmppConnection[];
  private readonly listeners: ReceiptListener[] = [];
  private next = 0;

  constructor(config: SmsDispatcherEnv) {
    const log = {
      info: (o: object) => this.logger.log(o),
      warn: (o: object) => this.logger.warn(o),
      error: (o: object) => this.logger.error(o),
    };
    this.connections = Array.from(
      { length: config.SMPP_BINDS },
      () =>
        new SmppConnection(
          {
            ...SMPP_CONNECTION_DEFAULTS,
            host: config.SMSC_HOST,
            port: config.SMSC_PORT,
            systemId: config.SMSC_SYSTEM_ID,
            password: config.SMSC_PASSWORD,
            windowSize: config.SMPP_WINDOW,
            maxPerSecond: config.SMPP_MAX_PER_SECOND,
          },
          log,
        ),
    );
    for (const connection of this.connections) {
      connection.onReceipt((receipt) => Promise.all(this.listeners.map((listener) => listener(receipt))));
    }
  }

  /** Binds in the background: a submit waits for a bind, and the job retries if none comes. */
  onModuleInit(): void {
    for (const connection of this.connections) {
      connection.connect().catch((error: unknown) => this.logger.error({ msg: 'SMPP bind failed', err: error }));
    }
  }

  submit(part: OutgoingPart): Promise<SubmitOutcome> {
    const bound = this.connections.filter((c) => c.isBound());
    const pool = bound.length > 0 ? bound : this.connections;
    const connection = pool[this.next++ % pool.length];
    return connection.submit(part);
  }

  onReceipt(listener: ReceiptListener): void {
    this.listeners.push(listener);
  }

  isBound(): boolean {
    return this.connections.some((c) => c.isBound());
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }
}

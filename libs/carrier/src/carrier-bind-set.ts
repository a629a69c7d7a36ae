import type { DeliveryReceipt } from './delivery-receipt';
import type { MobileOriginatedPdu } from './mobile-originated';
import { SmppConnection, type SmppConnectionOptions, type SmppLogger } from './smpp-connection';
import type { SmscTarget, SmscBindStatus, SubmitAnsweredListener } from './carrier-routes';
import type { OutgoingPart, SubmitOutcome } from './submit-sm';
import { noResponse } from './submit-window';

/** One carrier as the dispatcher binds it: its name, where it is, and its bind settings. */
export interface CarrierBindSpec {
  name: string;
  target: SmscTarget;
  binds: number;
  windowSize: number;
  maxPerSecond: number;
}

/** Everything of a connection the carriers share (timeouts, reconnection, traffic policy). */
export type SharedConnectionOptions = Omit<SmppConnectionOptions, keyof SmscTarget | 'windowSize' | 'maxPerSecond'>;

/** What apply() changed, by carrier name. */
export interface BindSetChanges {
  opened: string[];
  closed: string[];
  reopened: string[];
}

type Receipt = (receipt: DeliveryReceipt, smsc: string) => unknown;
type MobileOriginated = (message: MobileOriginatedPdu, smsc: string) => unknown;

/** A carrier's binds; parts go round-robin over those that are bound. */
class CarrierBinds {
  private next = 0;

  constructor(
    readonly spec: CarrierBindSpec,
    readonly key: string,
    readonly connections: SmppConnection[],
  ) {}

  pick(): { connection: SmppConnection; bind: number } {
    const bound = this.connections.filter((c) => c.isBound());
    const pool = bound.length > 0 ? bound : this.connections;
    const connection = pool[this.next++ % pool.length];
    return { connection, bind: this.connections.indexOf(connection) + 1 };
  }

  isBound(): boolean {
    return this.connections.some((c) => c.isBound());
  }
}

/** The settings whose change needs new binds (the password included, so never print a key). */
function connectionKey(spec: CarrierBindSpec): string {
  const { target, binds, windowSize, maxPerSecond } = spec;
  return JSON.stringify([target.host, target.port, target.systemId, target.password, target.transport ?? null, binds, windowSize, maxPerSecond]);
}

/**
 * The binds of a dispatcher to its carriers, changed at run time: apply() opens the binds of new
 * carriers, closes those of carriers no longer listed and reopens a carrier whose connection
 * settings changed. Listeners given once are attached to every bind, also those opened later.
 */
export class CarrierBindSet {
  private readonly carriers = new Map<string, CarrierBinds>();
  private readonly closing = new Set<Promise<void>>();
  private readonly receiptListeners: Receipt[] = [];
  private readonly moListeners: MobileOriginated[] = [];
  private readonly answered: SubmitAnsweredListener[] = [];
  private readonly stateListeners: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly shared: SharedConnectionOptions,
    private readonly onBindError: (carrier: string, error: unknown) => void,
    private readonly logger?: SmppLogger,
  ) {}

  /** Makes the binds those of `specs` (each carrier once, by name). */
  apply(specs: readonly CarrierBindSpec[]): BindSetChanges {
    if (this.closed) return { opened: [], closed: [], reopened: [] };
    const changes: BindSetChanges = { opened: [], closed: [], reopened: [] };
    const wanted = new Map(specs.map((spec) => [spec.name, spec]));
    for (const [name, current] of this.carriers) {
      if (wanted.has(name)) continue;
      this.retire(current);
      this.carriers.delete(name);
      changes.closed.push(name);
    }
    for (const spec of wanted.values()) {
      const key = connectionKey(spec);
      const current = this.carriers.get(spec.name);
      if (current?.key === key) continue;
      if (current) this.retire(current);
      this.carriers.set(spec.name, this.open(spec, key));
      (current ? changes.reopened : changes.opened).push(spec.name);
    }
    if (changes.closed.length + changes.opened.length + changes.reopened.length > 0) this.stateChanged();
    return changes;
  }

  /** The carrier's names, in the order they were opened. */
  names(): string[] {
    return [...this.carriers.keys()];
  }

  has(name: string): boolean {
    return this.carriers.has(name);
  }

  /** At least one of the carrier's binds is bound. */
  isCarrierBound(name: string): boolean {
    return this.carriers.get(name)?.isBound() ?? false;
  }

  /** Submits to the carrier's next bind; a carrier without binds here answers as a bind that never came. */
  submit(name: string, part: OutgoingPart): Promise<SubmitOutcome> {
    const carrier = this.carriers.get(name);
    if (!carrier) return Promise.resolve(noResponse(`no binds to carrier ${name}`));
    const { connection, bind } = carrier.pick();
    const submitted = connection.submit(part);
    if (this.answered.length === 0) return submitted;
    return submitted.then((outcome) => {
      for (const listener of this.answered) listener(name, bind, outcome);
      return outcome;
    });
  }

  onReceipt(listener: Receipt): void {
    this.receiptListeners.push(listener);
    for (const [name, carrier] of this.carriers) for (const c of carrier.connections) c.onReceipt((receipt) => listener(receipt, name));
  }

  onMobileOriginated(listener: MobileOriginated): void {
    this.moListeners.push(listener);
    for (const [name, carrier] of this.carriers) for (const c of carrier.connections) c.onMobileOriginated((message) => listener(message, name));
  }

  onSubmitAnswered(listener: SubmitAnsweredListener): void {
    this.answered.push(listener);
  }

  /** Called after any bind changes state, and when carriers are opened or closed. */
  onBindStateChange(listener: () => void): void {
    this.stateListeners.push(listener);
  }

  bindStates(): SmscBindStatus[] {
    return [...this.carriers].flatMap(([route, carrier]) =>
      carrier.connections.map((connection, index) => ({ route, bind: index + 1, ...connection.status() })),
    );
  }

  windows(): { smsc: string; bind: number; inUse: number; size: number }[] {
    return [...this.carriers].flatMap(([smsc, carrier]) =>
      carrier.connections.map((connection, index) => ({ smsc, bind: index + 1, ...connection.windowUse() })),
    );
  }

  /** Ready when every carrier has at least one bound bind (and there is one). */
  isBound(): boolean {
    return this.carriers.size > 0 && [...this.carriers.values()].every((carrier) => carrier.isBound());
  }

  /** Closes every bind, those being retired included; nothing opens afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.carriers.values()].flatMap((carrier) => carrier.connections.map((c) => c.close()));
    this.carriers.clear();
    await Promise.all([...all, ...this.closing]);
  }

  private open(spec: CarrierBindSpec, key: string): CarrierBinds {
    const options: SmppConnectionOptions = { ...this.shared, ...spec.target, windowSize: spec.windowSize, maxPerSecond: spec.maxPerSecond };
    const connections = Array.from({ length: spec.binds }, () => new SmppConnection(options, this.logger));
    for (const connection of connections) {
      for (const listener of this.receiptListeners) connection.onReceipt((receipt) => listener(receipt, spec.name));
      for (const listener of this.moListeners) connection.onMobileOriginated((message) => listener(message, spec.name));
      connection.onStateChange(() => this.stateChanged());
      connection.connect().catch((error) => this.onBindError(spec.name, error));
    }
    return new CarrierBinds(spec, key, connections);
  }

  /** Closes a carrier's binds in the background: their submits in flight get their responses first. */
  private retire(carrier: CarrierBinds): void {
    const closed = Promise.all(carrier.connections.map((c) => c.close())).then(() => undefined);
    this.closing.add(closed);
    void closed.finally(() => this.closing.delete(closed));
  }

  private stateChanged(): void {
    for (const listener of this.stateListeners) listener();
  }
}

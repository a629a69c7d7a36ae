import type { MobileOriginatedPdu } from './mobile-originated';
import {
  SmppConnection,
  type MobileOriginatedListener,
  type ReceiptListener,
  type SmppBindState,
  type SmppConnectionOptions,
  type SmppLogger,
} from './smpp-connection';
import type { DeliveryReceipt } from './delivery-receipt';
import type { SmppTransport } from './smpp-transport';
import type { OutgoingPart, SubmitOutcome } from './submit-sm';

/** Where one SMSC is and how to log in to it. */
export interface SmscTarget {
  host: string;
  port: number;
  systemId: string;
  password: string;
  /** Plain TCP when absent. */
  transport?: SmppTransport;
}

export interface CarrierRoutesOptions {
  /** The SMSC of every route that has none of its own. */
  defaultSmsc: SmscTarget;
  /** Routes (`standard`, `premium`, …) sent to an SMSC of their own. */
  routes: Readonly<Record<string, SmscTarget>>;
  /** Parallel binds to each SMSC. */
  binds: number;
  /** Everything but the address and credentials, the same for every bind. */
  connection: Omit<SmppConnectionOptions, keyof SmscTarget>;
}

/** Told of every submit's outcome: the SMSC's route name (`default` for the default SMSC) and the bind's number, from 1. */
export type SubmitAnsweredListener = (smsc: string, bind: number, outcome: SubmitOutcome) => void;

/** The binds to one SMSC; parts go round-robin over those that are bound. */
class BindGroup {
  private next = 0;

  constructor(
    readonly name: string,
    readonly connections: SmppConnection[],
    private readonly answered: readonly SubmitAnsweredListener[],
  ) {}

  submit(part: OutgoingPart): Promise<SubmitOutcome> {
    const bound = this.connections.filter((c) => c.isBound());
    const pool = bound.length > 0 ? bound : this.connections;
    const connection = pool[this.next++ % pool.length];
    const submitted = connection.submit(part);
    if (this.answered.length === 0) return submitted;
    const bind = this.connections.indexOf(connection) + 1;
    return submitted.then((outcome) => {
      for (const listener of this.answered) listener(this.name, bind, outcome);
      return outcome;
    });
  }
}

/**
 * The carrier connections of a dispatcher: a route picks its SMSC (its own, or the default one),
 * and within it a bind. Receipts come back over any bind of any SMSC to the same listeners.
 */
/** One bind as CarrierRoutes.bindStates tells it. */
export interface SmscBindStatus {
  route: string;
  bind: number;
  target: string;
  state: SmppBindState;
  since: Date;
}

export class CarrierRoutes {
  private readonly defaultGroup: BindGroup;
  private readonly groups = new Map<string, BindGroup>();
  private readonly all: SmppConnection[] = [];
  private readonly answered: SubmitAnsweredListener[] = [];

  constructor(options: CarrierRoutesOptions, logger?: SmppLogger) {
    const open = (name: string, smsc: SmscTarget) => {
      const connections = Array.from({ length: options.binds }, () => new SmppConnection({ ...options.connection, ...smsc }, logger));
      this.all.push(...connections);
      return new BindGroup(name, connections, this.answered);
    };
    this.defaultGroup = open('default', options.defaultSmsc);
    for (const [route, smsc] of Object.entries(options.routes)) this.groups.set(route, open(route, smsc));
  }

  /** Binds every connection; each keeps retrying with backoff until bound or closed. */
  connect(onError: (error: unknown) => void): void {
    for (const connection of this.all) connection.connect().catch(onError);
  }

  submit(route: string, part: OutgoingPart): Promise<SubmitOutcome> {
    return (this.groups.get(route) ?? this.defaultGroup).submit(part);
  }

  /** Every receipt, with the name of the SMSC it came from (`default` for the default one). */
  onReceipt(listener: (receipt: DeliveryReceipt, smsc: string) => ReturnType<ReceiptListener>): void {
    for (const [smsc, group] of this.groupsByName()) for (const connection of group.connections) connection.onReceipt((receipt) => listener(receipt, smsc));
  }

  /** Every mobile-originated part, with the name of the SMSC it came from. */
  onMobileOriginated(listener: (message: MobileOriginatedPdu, smsc: string) => ReturnType<MobileOriginatedListener>): void {
    for (const [smsc, group] of this.groupsByName())
      for (const connection of group.connections) connection.onMobileOriginated((message) => listener(message, smsc));
  }

  /**
   * Every bind's state: its route (`default` for the SMSC of routes without one of their own),
   * its number within the route, the SMSC and since when it has been in its state.
   */
  bindStates(): SmscBindStatus[] {
    return this.groupsByName().flatMap(([route, group]) => group.connections.map((connection, index) => ({ route, bind: index + 1, ...connection.status() })));
  }

  /** Called with the outcome of every submit, once it has one (for metrics: keep it cheap). */
  onSubmitAnswered(listener: SubmitAnsweredListener): void {
    this.answered.push(listener);
  }

  /** Every bind's window: submit_sm awaiting their response, and its size. */
  windows(): { smsc: string; bind: number; inUse: number; size: number }[] {
    return this.groupsByName().flatMap(([smsc, group]) => group.connections.map((connection, index) => ({ smsc, bind: index + 1, ...connection.windowUse() })));
  }

  /** Called after any bind changes state. */
  onBindStateChange(listener: () => void): void {
    for (const connection of this.all) connection.onStateChange(listener);
  }

  private groupsByName(): [string, BindGroup][] {
    return [['default', this.defaultGroup], ...this.groups.entries()];
  }

  /** Ready when every SMSC has at least one bind. */
  isBound(): boolean {
    return [this.defaultGroup, ...this.groups.values()].every((group) => group.connections.some((c) => c.isBound()));
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((c) => c.close()));
  }
}

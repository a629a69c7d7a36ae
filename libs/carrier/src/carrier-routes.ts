import { SmppConnection, type ReceiptListener, type SmppBindState, type SmppConnectionOptions, type SmppLogger } from './smpp-connection';
import type { OutgoingPart, SubmitOutcome } from './submit-sm';

/** Where one SMSC is and how to log in to it. */
export interface SmscTarget {
  host: string;
  port: number;
  systemId: string;
  password: string;
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

/** The binds to one SMSC; parts go round-robin over those that are bound. */
class BindGroup {
  private next = 0;

  constructor(readonly connections: SmppConnection[]) {}

  submit(part: OutgoingPart): Promise<SubmitOutcome> {
    const bound = this.connections.filter((c) => c.isBound());
    const pool = bound.length > 0 ? bound : this.connections;
    return pool[this.next++ % pool.length].submit(part);
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

  constructor(options: CarrierRoutesOptions, logger?: SmppLogger) {
    const open = (smsc: SmscTarget) => {
      const connections = Array.from({ length: options.binds }, () => new SmppConnection({ ...options.connection, ...smsc }, logger));
      this.all.push(...connections);
      return new BindGroup(connections);
    };
    this.defaultGroup = open(options.defaultSmsc);
    for (const [route, smsc] of Object.entries(options.routes)) this.groups.set(route, open(smsc));
  }

  /** Binds every connection; each keeps retrying with backoff until bound or closed. */
  connect(onError: (error: unknown) => void): void {
    for (const connection of this.all) connection.connect().catch(onError);
  }

  submit(route: string, part: OutgoingPart): Promise<SubmitOutcome> {
    return (this.groups.get(route) ?? this.defaultGroup).submit(part);
  }

  onReceipt(listener: ReceiptListener): void {
    for (const connection of this.all) connection.onReceipt(listener);
  }

  /**
   * Every bind's state: its route (`default` for the SMSC of routes without one of their own),
   * its number within the route, the SMSC and since when it has been in its state.
   */
  bindStates(): SmscBindStatus[] {
    const routes: [string, BindGroup][] = [['default', this.defaultGroup], ...this.groups.entries()];
    return routes.flatMap(([route, group]) => group.connections.map((connection, index) => ({ route, bind: index + 1, ...connection.status() })));
  }

  /** Called after any bind changes state. */
  onBindStateChange(listener: () => void): void {
    for (const connection of this.all) connection.onStateChange(listener);
  }

  /** Ready when every SMSC has at least one bind. */
  isBound(): boolean {
    return [this.defaultGroup, ...this.groups.values()].every((group) => group.connections.some((c) => c.isBound()));
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((c) => c.close()));
  }
}

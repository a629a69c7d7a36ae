import type { DataSource, EntityManager } from 'typeorm';
import { checkCarrierChanges, checkCarrierSettings, type CarrierChanges, type CarrierSettings } from './carrier-settings';
import { CarrierNotFoundError, RoutingInputError } from './routing-errors';

/** A carrier as the operator sees it: everything but its password. */
export interface CarrierView {
  id: number;
  name: string;
  host: string;
  port: number;
  systemId: string;
  systemType: string | null;
  binds: number;
  window: number;
  maxPerSecond: number;
  tls: boolean;
  /** PEM of the certificates its TLS binds trust (public, so shown); null: the dispatcher's default. */
  tlsCa: string | null;
  tlsServerName: string | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of CarrierView; the password is never selected for a view. */
export const CARRIER_VIEW_COLUMNS = `c.id, c.name, c.host, c.port, c.system_id, c.system_type, c.binds, c."window", c.max_per_second, c.tls, c.tls_ca, c.tls_server_name, c.enabled, c.created_at, c.updated_at`;

export interface CarrierRow {
  id: number;
  name: string;
  host: string;
  port: number;
  system_id: string;
  system_type: string | null;
  binds: number;
  window: number;
  max_per_second: number;
  tls: boolean;
  tls_ca: string | null;
  tls_server_name: string | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export function carrierView(row: CarrierRow): CarrierView {
  return {
    id: row.id,
    name: row.name,
    host: row.host,
    port: row.port,
    systemId: row.system_id,
    systemType: row.system_type,
    binds: row.binds,
    window: row.window,
    maxPerSecond: row.max_per_second,
    tls: row.tls,
    tlsCa: row.tls_ca,
    tlsServerName: row.tls_server_name,
    enabled: row.enabled,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const COLUMN_OF: Record<keyof CarrierChanges, string> = {
  host: 'host',
  port: 'port',
  systemId: 'system_id',
  password: 'password',
  systemType: 'system_type',
  binds: 'binds',
  window: '"window"',
  maxPerSecond: 'max_per_second',
  tls: 'tls',
  tlsCa: 'tls_ca',
  tlsServerName: 'tls_server_name',
};

const UNIQUE_VIOLATION = '23505';

/**
 * The carriers the dispatchers connect to (`carriers`). This lib is the only one that writes the
 * table; every write bumps routing_version (a trigger), which the dispatchers poll.
 */
export class CarrierStore {
  constructor(private readonly db: DataSource) {}

  async create(settings: CarrierSettings): Promise<CarrierView> {
    const s = checkCarrierSettings(settings);
    try {
      const rows: CarrierRow[] = await this.db.query(
        `INSERT INTO carriers AS c (name, host, port, system_id, password, system_type, binds, "window", max_per_second, tls, tls_ca, tls_server_name)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${CARRIER_VIEW_COLUMNS}`,
        [s.name, s.host, s.port, s.systemId, s.password, s.systemType, s.binds, s.window, s.maxPerSecond, s.tls, s.tlsCa ?? null, s.tlsServerName ?? null],
      );
      return carrierView(rows[0]);
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION)
        throw new RoutingInputError(`a carrier named "${s.name}" exists already (names are compared without case)`);
      throw error;
    }
  }

  /** Changes the settings given, leaves the others; an update without any is refused. */
  async update(name: string, changes: CarrierChanges): Promise<CarrierView> {
    const entries = Object.entries(checkCarrierChanges(changes)).filter(([, value]) => value !== undefined) as [keyof CarrierChanges, unknown][];
    if (entries.length === 0) throw new RoutingInputError('nothing to change: give at least one setting');
    const assignments = entries.map(([field], index) => `${COLUMN_OF[field]} = $${index + 2}`);
    return this.updateOne(
      name,
      assignments.join(', '),
      entries.map(([, value]) => value),
    );
  }

  /** A disabled carrier keeps its settings and routes; the dispatchers close its binds and route around it. */
  disable(name: string): Promise<CarrierView> {
    return this.updateOne(name, 'enabled = false', []);
  }

  enable(name: string): Promise<CarrierView> {
    return this.updateOne(name, 'enabled = true', []);
  }

  /** Every carrier, by name. */
  async list(): Promise<CarrierView[]> {
    const rows: CarrierRow[] = await this.db.query(`SELECT ${CARRIER_VIEW_COLUMNS} FROM carriers c ORDER BY lower(c.name)`);
    return rows.map(carrierView);
  }

  async findByName(name: string, manager: DataSource | EntityManager = this.db): Promise<CarrierView | null> {
    const rows: CarrierRow[] = await manager.query(`SELECT ${CARRIER_VIEW_COLUMNS} FROM carriers c WHERE lower(c.name) = lower($1)`, [name]);
    return rows.length === 0 ? null : carrierView(rows[0]);
  }

  private async updateOne(name: string, assignments: string, values: unknown[]): Promise<CarrierView> {
    // TypeORM answers an UPDATE with [rows, count].
    const [rows]: [CarrierRow[], number] = await this.db.query(
      `UPDATE carriers c SET ${assignments}, updated_at = now() WHERE lower(c.name) = lower($1) RETURNING ${CARRIER_VIEW_COLUMNS}`,
      [name, ...values],
    );
    if (rows.length === 0) throw new CarrierNotFoundError(name);
    return carrierView(rows[0]);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Carriers and their routes as data (issue 31, items 1 and 2), managed by the operator's admin
 * tool instead of the dispatcher's SMSC_* variables (docs/decisions/0054-carriers-as-data.md).
 *
 * `carriers`: one SMPP account each. The name is unique without case (`Acme` is `acme`); the
 * password is kept as given, since the dispatcher must send it in its bind (the decision says why
 * it is not sealed). `max_per_second` 0: unlimited.
 *
 * `carrier_routes`: for a destination prefix (`+` alone: every number) and an SMS route, the
 * carriers that may take a part, in `priority` order; `cost` is what the carrier charges per part,
 * to the platform's money precision of 4 decimals as prices are (null: unknown), `weight` a percentage of a split (null: none).
 *
 * `routing_version`: one row whose version goes up with every statement that writes either table
 * (a trigger, so a change made in psql counts too), so a dispatcher polls one row to learn that
 * its routing is stale.
 */
export class Carriers1764800006000 implements MigrationInterface {
  name = 'Carriers1764800006000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE carriers (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
        host text NOT NULL CHECK (length(host) BETWEEN 1 AND 253),
        port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
        system_id text NOT NULL CHECK (length(system_id) BETWEEN 1 AND 64),
        password text NOT NULL CHECK (length(password) <= 64),
        system_type text CHECK (length(system_type) <= 64),
        binds integer NOT NULL DEFAULT 1 CHECK (binds BETWEEN 1 AND 32),
        "window" integer NOT NULL DEFAULT 50 CHECK ("window" BETWEEN 1 AND 1000),
        max_per_second integer NOT NULL DEFAULT 0 CHECK (max_per_second BETWEEN 0 AND 100000),
        tls boolean NOT NULL DEFAULT false,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX carriers_name_ci ON carriers (lower(name))`);
    await db.query(`
      CREATE TABLE carrier_routes (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        prefix text NOT NULL CHECK (prefix ~ '^\\+[0-9]{0,15}$'),
        route text NOT NULL CHECK (route IN ('auto', 'standard', 'premium')),
        carrier_id integer NOT NULL REFERENCES carriers (id),
        priority integer NOT NULL CHECK (priority BETWEEN 0 AND 1000000),
        cost numeric(12, 4) CHECK (cost >= 0),
        weight integer CHECK (weight BETWEEN 1 AND 100),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (prefix, route, carrier_id)
      )`);
    await db.query(`CREATE INDEX carrier_routes_carrier ON carrier_routes (carrier_id)`);
    await db.query(`
      CREATE TABLE routing_version (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        version bigint NOT NULL,
        changed_at timestamptz NOT NULL
      )`);
    await db.query(`INSERT INTO routing_version (version, changed_at) VALUES (0, now())`);
    await db.query(`
      CREATE FUNCTION routing_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE routing_version SET version = version + 1, changed_at = now();
        RETURN NULL;
      END $$`);
    for (const table of ['carriers', 'carrier_routes']) {
      await db.query(`CREATE TRIGGER ${table}_changed AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION routing_version_bump()`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE carrier_routes`);
    await db.query(`DROP TABLE carriers`);
    await db.query(`DROP FUNCTION routing_version_bump()`);
    await db.query(`DROP TABLE routing_version`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SMPP over TLS per carrier (issue 31; docs/decisions/0056-smpp-over-tls.md): `tls_ca` the PEM of
 * the certificate(s) a TLS bind to this carrier trusts instead of the dispatcher's default
 * (SMSC_TLS_CA, else Node's public CAs), such as the carrier's private CA or its self-signed
 * certificate; `tls_server_name` the name its certificate must be issued to (and the SNI sent)
 * when it is not the host connected to. Null: the default. Certificates are public, so the PEM is
 * kept as given, not sealed; the length check bounds a bundle at 64 KiB.
 */
export class CarrierTlsCa1764800009000 implements MigrationInterface {
  name = 'CarrierTlsCa1764800009000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE carriers
        ADD COLUMN tls_ca text CHECK (length(tls_ca) BETWEEN 1 AND 65536),
        ADD COLUMN tls_server_name text CHECK (length(tls_server_name) BETWEEN 1 AND 253)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE carriers DROP COLUMN tls_server_name, DROP COLUMN tls_ca`);
  }
}

import { randomBytes } from 'node:crypto';
import { AuditLogRepository, parseNumber, SenderRegistry } from '@mp/accounts';
import { encodeGsm7 } from '@mp/messaging-domain';
import { InboundStore, type ReceivedPart } from '@mp/messaging';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';

/**
 * Who owns a message a carrier delivers: the InboundStore as the dispatcher wires it
 * (SmsSubmitModule), with the SenderRegistry's ownerOf, against numbers assigned as the admin
 * tool assigns them (parseNumber) and destinations written as carriers write them.
 */
describe('inbound ownership by assigned number (PostgreSQL)', () => {
  let db: DataSource;
  let registry: SenderRegistry;
  let store: InboundStore;
  let companyId: string;
  const random = (digits: number) => String(Math.floor(Math.random() * 10 ** digits)).padStart(digits, '0');

  const received = async (to: string): Promise<string | null> => {
    const part: ReceivedPart = { smsc: 'default', from: `+4479${random(8)}`, to, esmClass: 0, dataCoding: 0, userData: encodeGsm7(`to ${to}`), sar: null };
    const outcome = await store.receive(part);
    if (outcome.outcome !== 'stored') throw new Error(`not stored: ${outcome.outcome}`);
    const [row]: { company_id: string | null; recipient: string }[] = await db.query(`SELECT company_id, recipient FROM inbound_messages WHERE id = $1`, [
      outcome.messageId,
    ]);
    expect(row.recipient).toBe(to);
    expect(outcome.companyId).toBe(row.company_id);
    return row.company_id;
  };

  beforeAll(async () => {
    db = await openTestDataSource('inbound-ownership-test');
    registry = new SenderRegistry(db, new AuditLogRepository(db));
    store = new InboundStore(db, (number) => registry.ownerOf(number));
    companyId = (
      await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Inbound ownership', $1) RETURNING id`, [
        `whsec_${randomBytes(32).toString('base64')}`,
      ])
    )[0].id;
  });
  afterAll(() => db.destroy());

  it('gives a message to a short code to its company whether the carrier wrote it as digits or with + (TON international)', async () => {
    const shortCode = parseNumber(`6${random(7)}`, 'short_code');
    await registry.assign(companyId, shortCode, 'short_code');
    expect(await received(shortCode)).toBe(companyId);
    expect(await received(`+${shortCode}`)).toBe(companyId);
  });

  it('gives a message to a long number to its company when the carrier wrote it without + or after 00', async () => {
    const number = parseNumber(`+3363${random(7)}`);
    await registry.assign(companyId, number, 'long_code');
    expect(await received(number)).toBe(companyId);
    expect(await received(number.slice(1))).toBe(companyId);
    expect(await received(`00${number.slice(1)}`)).toBe(companyId);
  });

  it('keeps a message to a number assigned to nobody with no company', async () => {
    expect(await received(`+3364${random(7)}`)).toBeNull();
    expect(await received(`5${random(7)}`)).toBeNull();
  });
});

import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { DispatchStore } from './dispatch-store';
import { MessageCancellationService } from './message-cancellation';
import { findMessageView } from './message-view';
import { MessageRepository } from './message.repository';
import { SmsAcceptanceService } from './sms-acceptance';

describe('MessageCancellationService (PostgreSQL)', () => {
  let db: DataSource;
  let companyId: string;
  let cancellation: MessageCancellationService;
  const schedule = async (body: string) => {
    const accepted = await new SmsAcceptanceService(db, new MessageRepository(db), new LedgerRepository(db)).accept(
      {
        companyId,
        sender: 'Acme',
        route: 'auto',
        body,
        recipients: ['+33612345678'],
        reference: null,
        webhookUrl: null,
        scheduledAt: new Date(Date.now() + 3_600_000),
      },
      DEFAULT_PRICES,
    );
    return accepted.messages[0].messageId;
  };

  beforeAll(async () => {
    db = await openTestDataSource('message-cancellation-test', ACCOUNTS_ENTITIES);
    ({ company_id: companyId } = await new AccountsService(db, accountsRepositories(db), 'cancel-pepper-'.padEnd(40, 'x')).createCompany({
      name: 'Cancel',
      balance: '1',
    }));
    cancellation = new MessageCancellationService(db, new LedgerRepository(db));
  });
  afterAll(() => db.destroy());

  it('cancels a scheduled message with its parts, refunded whole, and the view says so throughout', async () => {
    const id = await schedule('c'.repeat(200));
    expect(await cancellation.cancel(companyId, id)).toMatchObject({ outcome: 'cancelled', refunded: 200n });
    const view = await findMessageView(db, companyId, id);
    expect(view).toMatchObject({
      status: 'cancelled',
      parts: 2,
      cost: 0.02,
      refunded: 0.02,
      cancelled_at: expect.any(String),
      sent_at: null,
      error_code: null,
    });
    expect(view?.part_details.map((part) => [part.index, part.status, part.submitted_at])).toEqual([
      [1, 'cancelled', null],
      [2, 'cancelled', null],
    ]);
    expect(await cancellation.cancel(companyId, id)).toEqual({ outcome: 'not-cancellable', status: 'cancelled' });
  });

  it('leaves a message the dispatcher released first, and its parts, as they are', async () => {
    const id = await schedule('released');
    expect(await new DispatchStore(db, new OutboxRepository(db)).release(id)).toBe('queued');
    expect(await cancellation.cancel(companyId, id)).toEqual({ outcome: 'not-cancellable', status: 'queued' });
    expect((await findMessageView(db, companyId, id))?.part_details.map((part) => part.status)).toEqual(['pending']);
  });
});

import type { SenderOwnership, SenderRegistry } from '@mp/accounts';
import { ApiError } from '@mp/http-kit';
import { GatewayEnv } from '../gateway.env';
import { SENDER_NOT_REGISTERED, SENDER_OF_ANOTHER_COMPANY, SenderPolicy } from './sender-policy.service';

const OWNER = 'company-owner';
const OTHER = 'company-other';

function policy(registeredOnly: boolean) {
  let loads = 0;
  const ownership: SenderOwnership = new Map([
    ['447400900123', OWNER],
    ['acme', OWNER],
  ]);
  const registry = {
    ownership: async () => {
      loads += 1;
      return ownership;
    },
  } as unknown as SenderRegistry;
  const config = Object.assign(new GatewayEnv(), { SENDER_IDS_REGISTERED_ONLY: registeredOnly });
  return { senders: new SenderPolicy(registry, config), loads: () => loads };
}

const refusedWith = async (check: Promise<void>) => {
  const error = await check.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return { status: (error as ApiError).getStatus(), body: (error as ApiError).getResponse() };
};

describe('SenderPolicy', () => {
  it("refuses another company's number (with or without +) and sender id (any case) with 403", async () => {
    const { senders } = policy(false);
    for (const sender of ['+447400900123', '447400900123', 'ACME', ' acme ']) {
      expect(await refusedWith(senders.check(OTHER, sender))).toEqual({ status: 403, body: expect.objectContaining({ error: SENDER_OF_ANOTHER_COMPANY }) });
    }
  });

  it('lets the owner and, by default, anyone with an unassigned sender through, reading the table once', async () => {
    const { senders, loads } = policy(false);
    await senders.check(OWNER, '+447400900123');
    await senders.checkAll(OWNER, ['Acme', 'SMS']);
    await senders.check(OTHER, 'Unassigned');
    expect(loads()).toBe(1);
  });

  it('with SENDER_IDS_REGISTERED_ONLY allows only the company’s own and the platform default', async () => {
    const { senders } = policy(true);
    await senders.check(OWNER, 'acme');
    await senders.check(OTHER, 'SMS');
    await senders.check(OTHER, 'OTP', 'OTP');
    expect(await refusedWith(senders.check(OTHER, 'Unassigned'))).toEqual({ status: 403, body: expect.objectContaining({ error: SENDER_NOT_REGISTERED }) });
    expect(await refusedWith(senders.checkAll(OWNER, ['Acme', 'Elsewhere']))).toMatchObject({ status: 403 });
  });
});

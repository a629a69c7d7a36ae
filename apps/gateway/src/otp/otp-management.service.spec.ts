import type { ApplicationEntity, ApplicationRepository } from '@mp/accounts';
import type { OtpManagementStore, OtpRecord } from '@mp/otp';
import { refusal } from '../testing/api-refusal';
import { OtpManagementService } from './otp-management.service';
import type { OtpRateLimiter } from './otp-rate-limiter.service';

const COMPANY = 'company-1';
const OTP = '0195f7a2-0000-7000-8000-000000000001';

const record: OtpRecord = {
  verificationId: OTP,
  appid: 'app_1',
  recipient: '+447911123456',
  channel: 'sms',
  status: 'pending',
  sender: 'OTP',
  lang: 'en',
  expiresAt: new Date('2026-11-22T10:10:00Z'),
  createdAt: new Date('2026-11-22T10:00:00Z'),
  lastSentAt: new Date('2026-11-22T10:00:00Z'),
  resends: 0,
  verifiedAt: null,
  cost: 100n,
  failureReason: null,
  errorCode: null,
};

function service(store: Partial<OtpManagementStore>) {
  const asked: unknown[][] = [];
  const applications = {
    findForCompany: async (companyId: string, appid: string) =>
      companyId === COMPANY && appid === 'app_1' ? ({ id: 'application-1' } as ApplicationEntity) : null,
  } as unknown as ApplicationRepository;
  const limiter = {
    usage: async () => ({ used: 3, limit: 20, remaining: 17, resetAt: new Date('2026-11-22T10:00:30Z') }),
  } as unknown as OtpRateLimiter;
  const recording = Object.fromEntries(
    Object.entries(store).map(([name, method]) => [
      name,
      async (...args: unknown[]) => (asked.push([name, ...args]), (method as (...a: unknown[]) => unknown)(...args)),
    ]),
  );
  return { management: new OtpManagementService(recording as unknown as OtpManagementStore, applications, limiter), asked };
}

describe('OtpManagementService', () => {
  it('shows an OTP of the company (never its code), and 404 for one it cannot find', async () => {
    const { management } = service({ record: async (_company: string, id: string) => (id === OTP ? record : null) });
    expect(await management.status(COMPANY, { verification_id: OTP })).toEqual({
      status: 'success',
      message: 'OTP status',
      data: expect.objectContaining({ verification_id: OTP, status: 'pending', cost: 0.01, expires_at: '2026-11-22T10:10:00.000Z', verified_at: null }),
    });
    expect(await refusal(management.status(COMPANY, { verification_id: '0195f7a2-0000-7000-8000-000000000002' }))).toEqual({
      status: 404,
      body: { error: 'OTP not found' },
    });
  });

  it("lists by the application's internal id, and refuses an appid that is not the company's (404) before reading", async () => {
    const { management, asked } = service({ records: async () => ({ items: [record], page: 1, limit: 50, total: 1 }) });
    const listed = await management.list(COMPANY, { appid: 'app_1' });
    expect(listed.data).toMatchObject({ items: [{ verification_id: OTP }], total: 1 });
    expect(asked[0].slice(0, 3)).toEqual(['records', COMPANY, expect.objectContaining({ applicationId: 'application-1' })]);
    expect(await refusal(management.list(COMPANY, { appid: 'app_other' }))).toEqual({ status: 404, body: { error: 'Application not found' } });
    expect(asked).toHaveLength(1);
  });

  it("answers the company's rate limit and its blocked recipients together", async () => {
    const blockedUntil = new Date('2026-11-22T10:30:00Z');
    const { management } = service({ blockedRecipients: async () => [{ appid: 'app_1', recipient: '+447911123456', blockedUntil }] });
    expect(await management.rateLimits(COMPANY)).toEqual({
      status: 'success',
      message: 'OTP rate limits',
      data: {
        limit: 20,
        used: 3,
        remaining: 17,
        reset_at: '2026-11-22T10:00:30.000Z',
        window_seconds: 60,
        blocked_recipients: [{ appid: 'app_1', recipient: '+447911123456', blocked_until: '2026-11-22T10:30:00.000Z' }],
      },
    });
  });
});

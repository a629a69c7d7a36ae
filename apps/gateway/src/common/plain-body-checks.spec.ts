import 'reflect-metadata';
import { apiValidationPipe, compilePlainBodyCheck } from '@mp/http-kit';
import { checkPlainBodiesLikeThePipe } from '@mp/testing';
import { getMetadataStorage } from 'class-validator';
import { TokenRequestDto } from '../auth/token.dto';
import { OtpResendDto, OtpSendDto, OtpVerifyDto } from '../otp/otp.dto';
import { SmsSendDto } from '../sms/sms-send.dto';

const LENGTHS = [0, 1, 4, 8, 11, 12, 32, 33, 100, 101, 200, 201, 1600, 1601, 20_000, 20_001];
const VALUES: unknown[] = [
  ...LENGTHS.map((length) => '7'.repeat(length)),
  '😀'.repeat(17), // 34 UTF-16 units, 17 characters as class-validator counts them
  '+447911123456',
  0,
  6,
  -1,
  true,
  false,
  null,
  { name: 'Ann' },
  ['+447911123456'],
];

describe('the gateway’s request bodies checked without class-validator', () => {
  it.each([SmsSendDto, OtpSendDto, OtpResendDto, OtpVerifyDto, TokenRequestDto])(
    '%p: passes only what the ValidationPipe passes, as the same instance',
    async (dto) => {
      const keys = [
        ...new Set(
          getMetadataStorage()
            .getTargetValidationMetadatas(dto, '', false, false)
            .map((rule) => rule.propertyName),
        ),
        'unknown',
      ];
      const { fastPassed, pipePassed } = await checkPlainBodiesLikeThePipe(dto, { keys, values: VALUES, seed: 11, count: 4000 });
      expect(fastPassed).toBeGreaterThan(50);
      expect(pipePassed).toBeGreaterThanOrEqual(fastPassed);
    },
  );

  it('covers the busiest bodies: an SMS and an OTP send', () => {
    expect(compilePlainBodyCheck(SmsSendDto)?.({ to: '+447911123456', message: 'Hello', from: 'Acme' })).toBe(true);
    expect(compilePlainBodyCheck(OtpSendDto)?.({ appid: 'app_1', recipient: '+447911123456' })).toBe(true);
  });

  it.each([
    { dto: SmsSendDto, body: { to: 12, message: 'x' }, error: 'to must be a string' },
    { dto: SmsSendDto, body: { to: '+447911123456', reference: ['x'] }, error: 'reference must be a string' },
    { dto: OtpSendDto, body: { appid: 'app_1', recipient: 447911123456 }, error: 'recipient must be a string' },
    { dto: SmsSendDto, body: { to: '7'.repeat(20_001) }, error: 'to is too long' },
  ])('$dto.name: a body the pipe refuses is answered "$error"', async ({ dto, body, error }) => {
    await expect(apiValidationPipe().transform(body, { type: 'body', metatype: dto, data: '' })).rejects.toMatchObject({ error });
  });
});

import { BadRequestException, HttpStatus, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { ApiError } from './api-error';
import { toErrorReply } from './error-body';
import { requestIdFrom, stripVersionPrefix } from './request-id';

describe('toErrorReply', () => {
  it('keeps the documented fields of an ApiError', () => {
    const reply = toErrorReply(new ApiError(402, 'Insufficient balance', { balance: 0.01, cost: 0.02 }));
    expect(reply).toEqual({ status: 402, body: { error: 'Insufficient balance', balance: 0.01, cost: 0.02 }, headers: {} });
  });

  it('turns Nest exceptions into { error }', () => {
    expect(toErrorReply(new NotFoundException('Cannot GET /nope')).body).toEqual({ error: 'Not found' });
    expect(toErrorReply(new BadRequestException(['to is required', 'x'])).body).toEqual({ error: 'to is required' });
  });

  it('maps Fastify body errors to 4xx with a readable error', () => {
    const invalidJson = Object.assign(new Error('Body is not valid JSON'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 });
    expect(toErrorReply(invalidJson)).toMatchObject({ status: 400, body: { error: 'Malformed JSON body' } });
    const tooLarge = Object.assign(new Error('too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 });
    expect(toErrorReply(tooLarge)).toMatchObject({ status: 413, body: { error: 'Request body is too large' } });
  });

  it("keeps a health report's checks but makes its error a text", () => {
    const report = { status: 'error', info: {}, error: { postgres: { status: 'down' } }, details: { postgres: { status: 'down' } } };
    const reply = toErrorReply(new ServiceUnavailableException(report));
    expect(reply).toEqual({ status: 503, body: { status: 'error', info: {}, error: 'Not ready', details: { postgres: { status: 'down' } } }, headers: {} });
  });

  it('hides the details of unexpected errors', () => {
    expect(toErrorReply(new Error('password=hunter2 leaked'))).toEqual({
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: { error: 'Internal server error' },
      headers: {},
    });
  });
});

describe('request ids and version alias', () => {
  it('keeps a sane caller id and replaces anything else', () => {
    expect(requestIdFrom('abc-123')).toBe('abc-123');
    expect(requestIdFrom('has space')).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFrom(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('strips /v1 only as a whole path segment', () => {
    expect(stripVersionPrefix('/v1/sms/send')).toBe('/sms/send');
    expect(stripVersionPrefix('/v1')).toBe('/');
    expect(stripVersionPrefix('/v1?x=1')).toBe('/?x=1');
    expect(stripVersionPrefix('/v10/sms')).toBe('/v10/sms');
    expect(stripVersionPrefix('/balance')).toBe('/balance');
  });
});

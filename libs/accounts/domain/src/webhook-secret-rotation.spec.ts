import { WEBHOOK_SECRET_OVERLAP_SECONDS, webhookSecretOverlap, WebhookSecretOverlapError } from './webhook-secret-rotation';

describe('webhookSecretOverlap', () => {
  it('is a day unless asked', () => {
    expect(webhookSecretOverlap(undefined)).toBe(86_400);
    expect(WEBHOOK_SECRET_OVERLAP_SECONDS.default).toBe(86_400);
  });

  it('takes any whole number of seconds from none to a week', () => {
    expect(webhookSecretOverlap(0)).toBe(0);
    expect(webhookSecretOverlap(3600)).toBe(3600);
    expect(webhookSecretOverlap(604_800)).toBe(604_800);
  });

  it.each([-1, 604_801, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %p', (seconds) => {
    expect(() => webhookSecretOverlap(seconds)).toThrow(WebhookSecretOverlapError);
    expect(() => webhookSecretOverlap(seconds)).toThrow('overlap_seconds must be an integer from 0 to 604800');
  });
});

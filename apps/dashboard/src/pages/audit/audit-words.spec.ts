import type { AuditEntry } from '../../api/audit';
import { actionWords, actorWords, AUDIT_ACTIONS, parseAuditSearch, summarise } from './audit-words';

const entry = (action: string, details: Record<string, unknown>, actor: AuditEntry['actor'] = { id: 'u1', email: 'owner@acme.test' }): AuditEntry => ({
  id: '1',
  at: '2026-11-26T10:00:00Z',
  actor,
  action,
  details,
});

describe("the audit log's words", () => {
  it('says each change in a readable line', () => {
    expect(summarise(entry('key.created', { key_id: 'k1', api_key: 'mpk_abc' }))).toBe('Key mpk_abc created');
    expect(summarise(entry('key.revoked', { key_id: 'k1', api_key: 'mpk_abc' }))).toBe('Key mpk_abc revoked');
    expect(summarise(entry('balance.topped_up', { amount: 25, balance: 30.5, reference: 'inv-7' }))).toBe(
      'Top-up of 25.0000 (balance 30.5000), reference inv-7',
    );
    expect(summarise(entry('balance.topped_up', { amount: 0.0001, balance: 0.0001 }))).toBe('Top-up of 0.0001 (balance 0.0001)');
    expect(summarise(entry('balance.topped_up', { amount: 25, balance: 30 }), 'EUR')).toBe('Top-up of 25.0000 EUR (balance 30.0000 EUR)');
    expect(summarise(entry('member.invited', { invitation_id: 'i1', email: 'dev@acme.test', role: 'developer' }))).toBe('dev@acme.test (developer) invited');
    expect(summarise(entry('member.removed', { user_id: 'u2', email: 'dev@acme.test', role: 'developer' }))).toBe('dev@acme.test (developer) removed');
    expect(summarise(entry('settings.changed', { billing: { low_balance_threshold: null } }))).toBe('Billing: low balance threshold none');
    expect(summarise(entry('settings.changed', { appid: 'app_1', application: { name: 'Shop', otp_length: 6 } }))).toBe(
      'Application app_1: name Shop, otp length 6',
    );
    expect(summarise(entry('template.text_set', { appid: 'app_1', template_id: 12, lang: 'fr', text: 'x', created: true }))).toBe(
      'Template 12: text in fr added',
    );
    expect(summarise(entry('template.deleted', { appid: 'app_1', template_id: 12, languages: ['en', 'fr'] }))).toBe(
      'Template 12 deleted with its en, fr texts',
    );
    expect(summarise(entry('webhook_secret.rotated', { overlap_seconds: 3600, previous_expires_at: null }))).toBe(
      'Webhook signing secret rotated; the old one signs for 3600 s more',
    );
  });

  it("says the platform's own entries: operators, prices set with the price before, imports", () => {
    expect(summarise(entry('price.set', { prefix: '+44', route: 'auto', price: '0.0400', previous_price: '0.0350' }, null))).toBe(
      'Price of +44 auto set to 0.0400 (was 0.0350)',
    );
    expect(summarise(entry('price.set', { prefix: '+44', route: 'premium', price: '0.0500', previous_price: null }))).toBe(
      'Price of +44 premium set to 0.0500 (a new price)',
    );
    expect(summarise(entry('prices.imported', { count: 1 }))).toBe('1 price imported from a CSV');
    expect(summarise(entry('prices.imported', { count: 12 }))).toBe('12 prices imported from a CSV');
    expect(summarise(entry('operator.created', { user_id: 'u9', email: 'ops@platform.test', role: 'operator' }))).toBe('Operator ops@platform.test created');
  });

  it('names every action, and shows one it does not know as it is', () => {
    expect(AUDIT_ACTIONS).toHaveLength(24);
    for (const action of AUDIT_ACTIONS) expect(actionWords(action)).not.toBe(action);
    expect(actionWords('key.created')).toBe('API key created');
    expect(actionWords('future.thing')).toBe('future.thing');
    expect(summarise(entry('future.thing', { a: 1 }))).toBe('{"a":1}');
  });

  it('names who acted: their email, or the admin tool', () => {
    expect(actorWords(entry('key.created', {}))).toBe('owner@acme.test');
    expect(actorWords(entry('key.created', {}, null))).toBe('Admin tool');
  });

  it('reads the URL, dropping an unknown action or a company id that is not one', () => {
    expect(parseAuditSearch({ action: 'key.revoked', company_id: '0195f7a2-0000-7000-8000-000000000001' })).toEqual({
      action: 'key.revoked',
      company_id: '0195f7a2-0000-7000-8000-000000000001',
    });
    expect(parseAuditSearch({ action: 'toString', company_id: 'acme' })).toEqual({});
    expect(parseAuditSearch({ action: 42 })).toEqual({});
  });
});

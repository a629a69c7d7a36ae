import { parseInboundListQuery } from './inbound.controller';

describe('GET /sms/inbound query', () => {
  it('takes a short code or an E.164 number as to, and E.164 as from', () => {
    expect(parseInboundListQuery({ to: '76543' })).toMatchObject({ ok: true, value: { filter: { to: '76543', from: null } } });
    expect(parseInboundListQuery({ to: '12345678', from: '+447911123456' })).toMatchObject({
      ok: true,
      value: { filter: { to: '12345678', from: '+447911123456' }, limit: 50, cursor: null },
    });
    expect(parseInboundListQuery({ to: '+447400900123' })).toMatchObject({ ok: true, value: { filter: { to: '+447400900123' } } });
  });

  it('refuses anything else, naming the parameter', () => {
    for (const to of ['12', '123456789', 'Acme', '+44 7400']) {
      expect(parseInboundListQuery({ to })).toEqual({ ok: false, error: expect.stringContaining('to') });
    }
    expect(parseInboundListQuery({ from: '76543' })).toEqual({ ok: false, error: expect.stringContaining('from') });
  });
});

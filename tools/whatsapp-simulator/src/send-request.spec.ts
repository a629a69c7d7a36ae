import { authenticationText, parseSendRequest } from './send-request';

function request(overrides: Record<string, unknown> = {}, template: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: '447700900123',
    type: 'template',
    template: {
      name: 'otp_code',
      language: { code: 'en_US' },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: '123456' }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '123456' }] },
      ],
      ...template,
    },
    ...overrides,
  };
}

function problem(body: unknown): string {
  const result = parseSendRequest(body);
  if (result.ok) throw new Error('expected the request to be refused');
  return result.problem;
}

describe('a send request', () => {
  it('accepts the authentication-template shape and takes the code from the body parameter', () => {
    expect(parseSendRequest(request())).toEqual({
      ok: true,
      message: { to: '447700900123', template: 'otp_code', language: 'en_US', code: '123456' },
    });
  });

  it('takes the button as optional, and recipient_type too', () => {
    const body = request({ recipient_type: undefined }, { components: [{ type: 'body', parameters: [{ type: 'text', text: '9876' }] }] });
    expect(parseSendRequest(body)).toMatchObject({ ok: true, message: { code: '9876' } });
  });

  it('refuses another product, recipient type or message type', () => {
    expect(problem(request({ messaging_product: 'sms' }))).toBe('messaging_product must be "whatsapp"');
    expect(problem(request({ recipient_type: 'group' }))).toBe('recipient_type must be "individual"');
    expect(problem(request({ type: 'text', text: { body: 'hi' } }))).toMatch(/^type must be "template"/);
  });

  it('wants `to` as 8 to 15 digits without +', () => {
    for (const to of ['+447700900123', '1234567', '1234567890123456', '44 7700 900123', 447700900123, undefined]) {
      expect(problem(request({ to }))).toMatch(/^to must be the phone number as 8 to 15 digits/);
    }
    expect(parseSendRequest(request({ to: '12345678' })).ok).toBe(true);
  });

  it('names a missing or bad template name and language', () => {
    expect(problem(request({ template: undefined }))).toBe('template must be a JSON object');
    expect(problem(request({}, { name: undefined }))).toBe('template.name is required');
    expect(problem(request({}, { name: 'OTP Code' }))).toMatch(/^template.name must be lowercase/);
    expect(problem(request({}, { language: 'en' }))).toBe('template.language must be a JSON object');
    expect(problem(request({}, { language: { code: 'english' } }))).toMatch(/^template.language.code must be a language code/);
  });

  it('wants exactly one body component with one non-empty text parameter', () => {
    const body = (parameters: unknown) => request({}, { components: [{ type: 'body', parameters }] });
    expect(problem(request({}, { components: [] }))).toMatch(/^template.components must list a body component/);
    expect(problem(request({}, { components: [{ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '1' }] }] }))).toMatch(
      /has no body component/,
    );
    expect(problem(body([]))).toBe('template.components[0].parameters must hold exactly one text parameter (the code)');
    expect(problem(body([{ type: 'currency' }]))).toBe('template.components[0].parameters[0].type must be "text"');
    expect(problem(body([{ type: 'text', text: ' ' }]))).toBe('template.components[0].parameters[0].text is required');
    expect(problem(body([{ type: 'text', text: '1234567890123456' }]))).toMatch(/at most 15 characters$/);
    const twice = { type: 'body', parameters: [{ type: 'text', text: '1' }] };
    expect(problem(request({}, { components: [twice, twice] }))).toBe('template.components has more than one body component');
  });

  it('checks the url button and refuses other components', () => {
    const withButton = (button: Record<string, unknown>) =>
      request(
        {},
        {
          components: [
            { type: 'body', parameters: [{ type: 'text', text: '1' }] },
            { type: 'button', parameters: [{ type: 'text', text: '1' }], ...button },
          ],
        },
      );
    expect(problem(withButton({ sub_type: 'quick_reply', index: '0' }))).toBe('template.components[1].sub_type must be "url"');
    expect(problem(withButton({ sub_type: 'url', index: '1' }))).toBe('template.components[1].index must be "0"');
    expect(parseSendRequest(withButton({ sub_type: 'url', index: 0 })).ok).toBe(true);
    expect(problem(request({}, { components: [{ type: 'header' }] }))).toBe('template.components[0].type must be "body" or "button"');
  });

  it('refuses what is not an object', () => {
    expect(problem(null)).toBe('the request body must be a JSON object');
    expect(problem([request()])).toBe('the request body must be a JSON object');
  });
});

describe('the text the handset shows', () => {
  it("is Meta's fixed authentication text with the code", () => {
    expect(authenticationText('482913')).toBe('482913 is your verification code. For your security, do not share this code.');
  });
});

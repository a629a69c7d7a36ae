/** Where the Cloud API is and who we are on it. */
export interface WhatsAppCloudSettings {
  /** `https://graph.facebook.com`, or the simulator `npm start` runs (http://127.0.0.1:2780). */
  baseUrl: string;
  /** Graph API version, such as v21.0. */
  version: string;
  phoneNumberId: string;
  accessToken: string;
  /** The approved authentication template that carries the code. */
  templateName: string;
  timeoutMs: number;
}

export interface AuthenticationCode {
  /** E.164, with its `+`. */
  to: string;
  code: string;
  /** The template's language code (`en`, `pt_BR`, …). */
  language: string;
}

/**
 * The send of an authentication template, as the Cloud API takes it: the code is the body's one
 * parameter and the copy-code button's too (Meta renders the text; nothing else can be sent to a
 * user who has not written first).
 */
export function authenticationTemplateRequest(settings: WhatsAppCloudSettings, message: AuthenticationCode): { url: string; init: RequestInit } {
  const body = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to.replace(/^\+/, ''),
    type: 'template',
    template: {
      name: settings.templateName,
      language: { code: message.language },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: message.code }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: message.code }] },
      ],
    },
  };
  return {
    url: `${settings.baseUrl.replace(/\/+$/, '')}/${settings.version}/${encodeURIComponent(settings.phoneNumberId)}/messages`,
    init: {
      method: 'POST',
      headers: { authorization: `Bearer ${settings.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
  };
}

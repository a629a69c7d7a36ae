import { authenticationTemplateRequest, type AuthenticationCode, type WhatsAppCloudSettings } from './cloud-api-request';

export type WhatsAppSendOutcome =
  | { ok: true; messageId: string }
  /** `permanent`: sending it again will not help (bad number, bad template, refused token). */
  | { ok: false; permanent: boolean; status: number | null; reason: string };

/** Sends authentication codes through the WhatsApp Cloud API. Never throws: failures are outcomes. */
export class WhatsAppCloudClient {
  constructor(private readonly settings: WhatsAppCloudSettings) {}

  async sendAuthenticationCode(message: AuthenticationCode): Promise<WhatsAppSendOutcome> {
    const { url, init } = authenticationTemplateRequest(this.settings, message);
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(this.settings.timeoutMs) });
    } catch (error) {
      return { ok: false, permanent: false, status: null, reason: `Cloud API unreachable: ${(error as Error).message}` };
    }
    const body = (await response.json().catch(() => null)) as CloudApiAnswer | null;
    const messageId = body?.messages?.[0]?.id;
    if (response.ok && messageId) return { ok: true, messageId };
    return { ok: false, permanent: isPermanent(response.status), status: response.status, reason: body?.error?.message ?? `HTTP ${response.status}` };
  }
}

interface CloudApiAnswer {
  messages?: { id?: string }[];
  error?: { message?: string; code?: number };
}

/** 4xx other than rate limiting are the request's fault; 429 and 5xx may pass later. */
function isPermanent(status: number): boolean {
  return status >= 400 && status < 500 && status !== 429 && status !== 408;
}

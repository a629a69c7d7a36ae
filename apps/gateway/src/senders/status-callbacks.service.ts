import { Injectable } from '@nestjs/common';
import { MessagingSettings } from '@mp/accounts';
import { LoadingCache } from '../common/loading-cache';

/** How long a changed status-callback address may go unseen by a gateway's sends. */
const SETTINGS_TTL_MS = 5_000;

/**
 * The address a message's status events go to: the send's own webhook_url, or else the company's
 * status-callback address (companies.status_callback_url), cached per company so a send costs no
 * query. It is stored on the message at acceptance, as a webhook_url is.
 */
@Injectable()
export class StatusCallbacks {
  private readonly cache = new LoadingCache<{ url: string | null }>({ ttlMs: SETTINGS_TTL_MS });

  constructor(private readonly settings: MessagingSettings) {}

  async addressFor(companyId: string, webhookUrl: string | null): Promise<string | null> {
    if (webhookUrl !== null) return webhookUrl;
    const loaded = await this.cache.get(companyId, async () => ({ url: (await this.settings.get(companyId))?.statusCallbackUrl ?? null }));
    return loaded?.url ?? null;
  }
}

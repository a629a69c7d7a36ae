import { randomBytes } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { DEV_SECRETS } from '@mp/config';
import { createHttpApi, listenHttp } from './http-api';
import { Inbox, type InboxMessage } from './inbox';
import { authenticationText, type TemplateMessage } from './send-request';
import { StatusNotifier, type StatusNotifierOptions } from './status-notifier';

export interface WhatsappSimulatorOptions extends Omit<StatusNotifierOptions, 'logger'> {
  host: string;
  /** 0 = any free port (see RunningWhatsappSimulator.port). */
  port: number;
  /** The bearer token senders must present. */
  accessToken: string;
  logger: Logger;
}

/** No failures, statuses about 200 ms apart, the development secrets of @mp/config. */
export const SIMULATOR_DEFAULTS: Omit<WhatsappSimulatorOptions, 'logger'> = {
  host: '127.0.0.1',
  port: 2780,
  accessToken: DEV_SECRETS.WHATSAPP_ACCESS_TOKEN,
  appSecret: DEV_SECRETS.WHATSAPP_APP_SECRET,
  webhookUrl: '',
  statusDelayMs: 200,
  failureRate: 0,
  webhookAttempts: 5,
  retryDelayMs: 200,
  webhookTimeoutMs: 5_000,
  random: Math.random,
};

export interface RunningWhatsappSimulator {
  host: string;
  port: number;
  /** What GET /messages shows. */
  messages(to?: string): InboxMessage[];
  /** Closes the server; statuses not yet posted are dropped. */
  stop(): Promise<void>;
}

/** Starts the WhatsApp simulator in this process (what main.ts runs, and what tests start with port 0). */
export async function startWhatsappSimulator(overrides: Partial<WhatsappSimulatorOptions> = {}): Promise<RunningWhatsappSimulator> {
  const options: WhatsappSimulatorOptions = { ...SIMULATOR_DEFAULTS, logger: pino({ level: 'silent' }), ...overrides };
  const { logger, host } = options;
  const inbox = new Inbox();
  const notifier = new StatusNotifier(options);
  const accept = (message: TemplateMessage, phoneNumberId: string): string => {
    const id = `wamid.${randomBytes(24).toString('base64url')}`;
    const received = { message_id: id, to: `+${message.to}`, text: authenticationText(message.code), template: message.template, language: message.language };
    inbox.add({ ...received, received_at: new Date().toISOString() });
    logger.info({ event: 'message', phoneNumberId, ...received });
    notifier.notify({ messageId: id, phoneNumberId, to: message.to });
    return id;
  };
  const http = createHttpApi({ accessToken: options.accessToken, inbox, accept });
  const port = await listenHttp(http, options.port, host);
  return {
    host,
    port,
    messages: (to) => inbox.messages(to),
    stop: async () => {
      http.closeAllConnections();
      await Promise.all([notifier.stop(), new Promise<void>((resolve) => http.close(() => resolve()))]);
    },
  };
}

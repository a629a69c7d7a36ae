/**
 * A development stand-in for Meta's WhatsApp Cloud API on WHATSAPP_SIMULATOR_HOST:_PORT
 * (127.0.0.1:2780): the otp app sends template messages to POST /v21.0/<phone number id>/messages,
 * status webhooks go to WHATSAPP_SIMULATOR_WEBHOOK_URL, and an inspection API shows what "the
 * phone" received:
 *
 *   curl -s 'http://127.0.0.1:2780/messages?to=%2B447700900123'
 *
 * Run by `npm start`; alone: npm run --silent build && node -r ./tools/runtime/register.js
 * dist/out/tools/whatsapp-simulator/src/main.js. Settings: see config.ts. Logs are JSON lines on stdout.
 */
import { ConfigError } from '@mp/config';
import { createLogger } from '@mp/observability';
import { readSimulatorEnv, type WhatsappSimulatorEnv } from './config';
import { startWhatsappSimulator } from './simulator';

const APP = 'whatsapp-simulator';

async function main(): Promise<number> {
  let env: WhatsappSimulatorEnv;
  try {
    env = readSimulatorEnv(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${APP}: refusing to start. ${error.message}\n`);
    return 1;
  }
  const logger = createLogger({ app: APP, level: env.LOG_LEVEL });
  const settings = {
    webhookUrl: env.WHATSAPP_SIMULATOR_WEBHOOK_URL,
    statusDelayMs: env.WHATSAPP_SIMULATOR_STATUS_DELAY_MS,
    failureRate: env.WHATSAPP_SIMULATOR_FAILURE_RATE,
  };
  const simulator = await startWhatsappSimulator({
    ...settings,
    host: env.WHATSAPP_SIMULATOR_HOST,
    port: env.WHATSAPP_SIMULATOR_PORT,
    accessToken: env.WHATSAPP_ACCESS_TOKEN,
    appSecret: env.WHATSAPP_APP_SECRET,
    logger,
  }).catch((error: unknown) => {
    const { code, port } = error as { code?: string; port?: number };
    if (code !== 'EADDRINUSE') throw error;
    process.stderr.write(`${APP}: port ${port} on ${env.WHATSAPP_SIMULATOR_HOST} is in use (set WHATSAPP_SIMULATOR_PORT to another)\n`);
    return undefined;
  });
  if (!simulator) return 1;
  logger.info({ event: 'listening', http: `http://${simulator.host}:${simulator.port}`, ...settings });
  await new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, resolve);
  });
  await simulator.stop();
  logger.info({ event: 'stopped' });
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${APP}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);

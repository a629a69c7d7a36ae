/**
 * A development SMSC: SMPP on SMSC_HOST:SMSC_PORT (127.0.0.1:2775) for the sms-dispatcher, and an
 * inspection API on SMSC_HTTP_PORT (2776) showing what "the phone" received:
 *
 *   curl -s 'http://127.0.0.1:2776/messages?to=%2B447700900123'
 *
 * Run by `npm start`; alone: npm run --silent build && node -r ./tools/runtime/register.js
 * dist/out/tools/smsc-simulator/src/main.js. Settings: see config.ts. Logs are JSON lines on stdout.
 */
import { ConfigError } from '@mp/config';
import { createLogger } from '@mp/observability';
import { readSimulatorEnv, type SmscSimulatorEnv } from './config';
import { startSmscSimulator } from './simulator';

const APP = 'smsc-simulator';

async function main(): Promise<number> {
  let env: SmscSimulatorEnv;
  try {
    env = readSimulatorEnv(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${APP}: refusing to start. ${error.message}\n`);
    return 1;
  }
  const logger = createLogger({ app: APP, level: env.LOG_LEVEL });
  const settings = {
    receiptDelayMs: env.SMSC_RECEIPT_DELAY_MS,
    failureRate: env.SMSC_FAILURE_RATE,
    rejectRate: env.SMSC_REJECT_RATE,
    latencyMs: env.SMSC_LATENCY_MS,
    maxRatePerSecond: env.SMSC_MAX_RATE_PER_SECOND,
  };
  const simulator = await startSmscSimulator({
    ...settings,
    host: env.SMSC_HOST,
    smppPort: env.SMSC_PORT,
    httpPort: env.SMSC_HTTP_PORT,
    systemId: env.SMSC_SYSTEM_ID,
    password: env.SMSC_PASSWORD,
    logger,
  }).catch((error: unknown) => {
    const { code, port } = error as { code?: string; port?: number };
    if (code !== 'EADDRINUSE') throw error;
    process.stderr.write(`${APP}: port ${port} on ${env.SMSC_HOST} is in use (set SMSC_PORT / SMSC_HTTP_PORT to others)\n`);
    return undefined;
  });
  if (!simulator) return 1;
  logger.info({
    event: 'listening',
    smpp: `${simulator.host}:${simulator.smppPort}`,
    http: `http://${simulator.host}:${simulator.httpPort}`,
    checksCredentials: env.SMSC_SYSTEM_ID !== '' || env.SMSC_PASSWORD !== '',
    ...settings,
  });
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

/**
 * A development SMSC: SMPP on SMSC_HOST:SMSC_PORT (127.0.0.1:2775) for the sms-dispatcher, and over
 * TLS on SMSC_TLS_PORT when set; and an inspection API on SMSC_HTTP_PORT (2776) showing what "the
 * phone" received:
 *
 *   curl -s 'http://127.0.0.1:2776/messages?to=%2B447700900123'
 *
 * Run by `npm start`; alone: npm run --silent build && node -r ./tools/runtime/register.js
 * dist/out/tools/smsc-simulator/src/main.js. Settings: see config.ts. Logs are JSON lines on stdout.
 */
import { ConfigError } from '@mp/config';
import { createLogger } from '@mp/observability';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSimulatorEnv, type SmscSimulatorEnv } from './config';
import { startSmscSimulator, type RunningSmscSimulator, type SmscSimulatorOptions } from './simulator';
import { tlsCredentials } from './tls-credentials';

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
  const tls = await tlsOf(env);
  if (tls instanceof Error) {
    process.stderr.write(`${APP}: refusing to start. ${tls.message}\n`);
    return 1;
  }
  const simulator = await start(env, { ...settings, tlsCredentials: tls?.credentials, logger });
  if (!simulator) return 1;
  const smppTls = tls && { smppTls: `${simulator.host}:${simulator.tlsPort}`, tlsCertificateFile: await writtenCertificate(env, simulator, tls) };
  logger.info({
    event: 'listening',
    smpp: `${simulator.host}:${simulator.smppPort}`,
    ...smppTls,
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

/** Starts the simulator on the configured ports; undefined (and why, on stderr) when one is taken. */
function start(env: SmscSimulatorEnv, options: Partial<SmscSimulatorOptions>): Promise<RunningSmscSimulator | undefined> {
  return startSmscSimulator({
    ...options,
    host: env.SMSC_HOST,
    smppPort: env.SMSC_PORT,
    httpPort: env.SMSC_HTTP_PORT,
    tlsPort: env.SMSC_TLS_PORT,
    systemId: env.SMSC_SYSTEM_ID,
    password: env.SMSC_PASSWORD,
  }).catch((error: unknown) => {
    const { code, port } = error as { code?: string; port?: number };
    if (code !== 'EADDRINUSE') throw error;
    process.stderr.write(`${APP}: port ${port} on ${env.SMSC_HOST} is in use (set SMSC_PORT / SMSC_HTTP_PORT / SMSC_TLS_PORT to others)\n`);
    return undefined;
  });
}

type TlsSetup = Awaited<ReturnType<typeof tlsCredentials>> & { certificateFile?: string };

/**
 * The TLS listener's certificate and key when SMSC_TLS_PORT asks for one; an Error to refuse to
 * start with. A self-signed certificate is written out here when its file's name is known before
 * the listeners are up, so that it is there as soon as the simulator answers.
 */
async function tlsOf(env: SmscSimulatorEnv): Promise<TlsSetup | undefined | Error> {
  if (env.SMSC_TLS_PORT === undefined) return undefined;
  try {
    const setup: TlsSetup = await tlsCredentials(env.SMSC_HOST, env.SMSC_TLS_CERT, env.SMSC_TLS_KEY);
    const file = setup.generated ? certificateFileName(env, env.SMSC_TLS_PORT) : undefined;
    if (file) await writeFile(file, setup.credentials.cert);
    return { ...setup, certificateFile: file };
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** SMSC_TLS_CERT_OUT, else a file named after the TLS port (unknown before listening on port 0). */
function certificateFileName(env: SmscSimulatorEnv, port: number): string | undefined {
  if (env.SMSC_TLS_CERT_OUT) return env.SMSC_TLS_CERT_OUT;
  return port === 0 ? undefined : join(tmpdir(), `smsc-simulator-${port}.pem`);
}

/** The file a client trusts the TLS listener by: the one given, or the self-signed certificate written out. */
async function writtenCertificate(env: SmscSimulatorEnv, simulator: RunningSmscSimulator, tls: TlsSetup): Promise<string> {
  if (!tls.generated) return env.SMSC_TLS_CERT;
  if (tls.certificateFile) return tls.certificateFile;
  const file = certificateFileName(env, simulator.tlsPort ?? 0) ?? join(tmpdir(), 'smsc-simulator.pem');
  await writeFile(file, tls.credentials.cert);
  return file;
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

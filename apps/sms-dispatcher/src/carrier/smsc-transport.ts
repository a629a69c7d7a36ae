import { readFileSync } from 'node:fs';
import { PLAIN_TCP, type SmppTransport } from '@mp/carrier';
import { ConfigError } from '@mp/config';
import type { SmsDispatcherEnv } from '../sms-dispatcher.env';

type TlsEnv = Pick<SmsDispatcherEnv, 'SMSC_TLS' | 'SMSC_TLS_CA' | 'SMSC_TLS_SERVERNAME' | 'SMSC_TLS_REJECT_UNAUTHORIZED'>;

/** How the binds reach the SMSCs, from SMSC_TLS*; the CA file is read once, at start. */
export function smscTransport(config: TlsEnv, readFile: (path: string) => string = (path) => readFileSync(path, 'utf8')): SmppTransport {
  if (!config.SMSC_TLS) return PLAIN_TCP;
  return {
    tls: true,
    rejectUnauthorized: config.SMSC_TLS_REJECT_UNAUTHORIZED,
    ...(config.SMSC_TLS_CA === undefined ? {} : { ca: readCa(config.SMSC_TLS_CA, readFile) }),
    ...(config.SMSC_TLS_SERVERNAME === undefined ? {} : { servername: config.SMSC_TLS_SERVERNAME }),
  };
}

function readCa(path: string, readFile: (path: string) => string): string {
  let pem: string;
  try {
    pem = readFile(path);
  } catch (error) {
    throw new ConfigError([`SMSC_TLS_CA="${path}": cannot be read (${(error as Error).message})`]);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError([`SMSC_TLS_CA="${path}": holds no PEM certificate`]);
  return pem;
}

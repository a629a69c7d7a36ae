import { checkTlsCa, checkTlsServerName } from './carrier-tls';
import { RoutingInputError } from './routing-errors';

/** How the dispatcher reaches one carrier's SMSC and how hard it may push it. */
export interface CarrierSettings {
  /** Unique without case; also the carrier's label in logs and metrics. */
  name: string;
  host: string;
  port: number;
  systemId: string;
  /** Sent in every bind: kept as given, never shown (docs/decisions/0054-carriers-as-data.md). */
  password: string;
  systemType: string | null;
  /** Parallel binds. */
  binds: number;
  /** Outstanding submit_sm per bind. */
  window: number;
  /** submit_sm per second per bind; 0: unlimited. */
  maxPerSecond: number;
  tls: boolean;
  /** PEM of the certificates a TLS bind trusts instead of the dispatcher's default (checkTlsCa); null or absent: the default. */
  tlsCa?: string | null;
  /** The name the carrier's certificate must be issued to, when not its host; null or absent: the host. */
  tlsServerName?: string | null;
}

/** What carrier:update may change: anything but the name. */
export type CarrierChanges = Partial<Omit<CarrierSettings, 'name'>>;

/** The defaults of carrier:create for what it is not given. */
export const CARRIER_DEFAULTS = { systemType: null, binds: 1, window: 50, maxPerSecond: 0, tls: false, tlsCa: null, tlsServerName: null } as const;

/** Inclusive ranges of the numeric settings, as the table's checks hold them. */
export const CARRIER_LIMITS = {
  port: [1, 65_535],
  binds: [1, 32],
  window: [1, 1000],
  maxPerSecond: [0, 100_000],
} as const satisfies Record<string, readonly [number, number]>;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const HOST = /^[A-Za-z0-9.:[\]-]{1,253}$/;

const OPTION_OF: Record<string, string> = { systemId: 'system-id', systemType: 'system-type', maxPerSecond: 'max-per-second' };
const optionOf = (field: string) => OPTION_OF[field] ?? field;

/** An integer option given as text, within its range; the message names the option. */
export function integerSetting(option: string, text: string, [min, max]: readonly [number, number]): number {
  const value = /^-?\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RoutingInputError(`--${option} must be an integer from ${min} to ${max} (got "${text}")`);
  return value;
}

/** A carrier's name as carrier:create accepts it. */
export function checkCarrierName(name: string): string {
  if (!NAME.test(name)) throw new RoutingInputError(`--name must be 1 to 64 letters, digits, . _ or -, starting with a letter or digit (got "${name}")`);
  return name;
}

/** Checks every setting of a new carrier; each error names its option. */
export function checkCarrierSettings(settings: CarrierSettings): CarrierSettings {
  checkCarrierName(settings.name);
  const { name, ...changes } = settings;
  return { name, ...checkCarrierChanges(changes) } as CarrierSettings;
}

/** Checks the settings an update gives (those absent are left as they are); answers them with the CA normalised. */
export function checkCarrierChanges(changes: CarrierChanges): CarrierChanges {
  if (changes.host !== undefined && !HOST.test(changes.host)) throw new RoutingInputError(`--host must be a host name or IP address (got "${changes.host}")`);
  for (const field of Object.keys(CARRIER_LIMITS) as (keyof typeof CARRIER_LIMITS)[]) {
    const value = changes[field];
    const [min, max] = CARRIER_LIMITS[field];
    if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
      throw new RoutingInputError(`--${optionOf(field)} must be an integer from ${min} to ${max} (got ${value})`);
    }
  }
  if (changes.systemId !== undefined) checkText('systemId', changes.systemId, 1);
  if (changes.password !== undefined) checkText('password', changes.password, 0);
  if (changes.systemType !== undefined && changes.systemType !== null) checkText('systemType', changes.systemType, 0);
  if (typeof changes.tlsServerName === 'string') checkTlsServerName(changes.tlsServerName);
  return typeof changes.tlsCa === 'string' ? { ...changes, tlsCa: checkTlsCa(changes.tlsCa) } : changes;
}

/** SMPP's credentials: printable, up to 64 characters (the spec's own limits are the SMSC's to enforce). */
function checkText(field: string, value: string, min: number): void {
  if (value.length < min || value.length > 64 || hasControlCharacter(value)) {
    // The password's value is never repeated in a message.
    const got = field === 'password' ? '' : ` (got "${value}")`;
    throw new RoutingInputError(`--${optionOf(field)} must be ${min} to 64 printable characters${got}`);
  }
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

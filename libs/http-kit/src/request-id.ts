import { randomUUID } from 'node:crypto';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is a sane token, else a fresh UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && ACCEPTABLE.test(value) ? value : randomUUID();
}

/** `/v1/sms/send` and `/sms/send` are the same route (decisions.md: versioned paths alias the plain ones). */
export function stripVersionPrefix(url: string): string {
  if (url !== '/v1' && !url.startsWith('/v1/') && !url.startsWith('/v1?')) return url;
  const rest = url.slice(3);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

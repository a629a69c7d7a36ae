// The verifications page's filter as it lives in the URL (`?from=…&to=…&channel=sms&country=DE`):
// read from whatever a URL holds (anything unknown dropped), and turned into the API's query.
import { OTP_CHANNELS, type OtpChannel, type VerificationStatsQuery } from '../../api/verifications';
import { urlDayRange, urlText, withoutEmpty } from '../../components/url-values';

export interface VerificationFilter {
  /** YYYY-MM-DD, inclusive; none: the last 30 days. */
  from?: string;
  to?: string;
  channel?: OtpChannel;
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string;
}

const COUNTRY = /^[A-Z]{2}$/;

/** What a URL's search parameters ask the page to show; what cannot be read is left out. */
export function parseVerificationFilter(search: Record<string, unknown>): VerificationFilter {
  const channel = urlText(search['channel']);
  const country = urlText(search['country'])?.toUpperCase();
  return withoutEmpty({
    ...urlDayRange(search),
    channel: OTP_CHANNELS.find((known) => known === channel),
    country: country && COUNTRY.test(country) ? country : undefined,
  });
}

/** The filter as GET /verifications/stats takes it: the same names. */
export function verificationStatsQueryOf(filter: VerificationFilter): VerificationStatsQuery {
  return withoutEmpty({ from: filter.from, to: filter.to, channel: filter.channel, country: filter.country });
}

export function isVerificationFiltered(filter: VerificationFilter): boolean {
  return Object.keys(verificationStatsQueryOf(filter)).length > 0;
}

// The benchmarks' requests, as the API's callers send them.
import type { Company } from './load-request';

/** The headers of a JSON request as `company`, by its API key and secret. */
export function jsonRequestHeaders(company: Company): Record<string, string> {
  return { 'content-type': 'application/json', 'x-api-key': company.api_key, 'x-api-secret': company.api_secret };
}

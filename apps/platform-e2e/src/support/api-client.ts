/** A company's API credentials, as `admin company:create` prints them. */
export interface ApiCredentials {
  api_key: string;
  api_secret: string;
}

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** POSTs JSON to the gateway as the company, answering the status and the parsed body. */
export function apiPoster(gatewayUrl: () => string, credentials: () => ApiCredentials) {
  return async (path: string, body: unknown): Promise<ApiAnswer> => {
    const { api_key, api_secret } = credentials();
    const response = await fetch(`${gatewayUrl()}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': api_key, 'x-api-secret': api_secret, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

/** What the SMSC simulator's `GET /messages` lists, every message so far. */
export async function simulatorMessages<T>(simulatorUrl: string): Promise<T[]> {
  return (await (await fetch(`${simulatorUrl}/messages`)).json()) as T[];
}

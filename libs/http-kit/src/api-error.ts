import { HttpException } from '@nestjs/common';

/**
 * A failure the API answers on purpose: the HTTP status, the `error` text, and the extra fields
 * the interface promises for it (`balance`, `cost`, `retry_after`, `details`, ...).
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly error: string,
    readonly fields: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super({ error, ...fields }, status);
  }
}

/** The schemes a 401 invites the caller to use (decisions.md: all three on every route). */
export const UNAUTHORIZED_HEADERS = {
  'www-authenticate': 'Basic realm="messaging", Bearer realm="messaging"',
};

/** Missing or bad credentials: 401 `{ error: "Unauthorized" }` with `WWW-Authenticate`. */
export function unauthorized(): ApiError {
  return new ApiError(401, 'Unauthorized', {}, UNAUTHORIZED_HEADERS);
}

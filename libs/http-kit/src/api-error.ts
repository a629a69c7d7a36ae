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

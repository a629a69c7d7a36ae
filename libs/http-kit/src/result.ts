import { HttpStatus } from '@nestjs/common';
import { ApiError } from './api-error';

/** What reading a request answers: its value, or the text of a 400 naming the bad field. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

/** The value, or a 400 `{ error }` with the result's text. */
export function valueOrBadRequest<T>(result: Result<T>): T {
  if (!result.ok) throw new ApiError(HttpStatus.BAD_REQUEST, result.error);
  return result.value;
}

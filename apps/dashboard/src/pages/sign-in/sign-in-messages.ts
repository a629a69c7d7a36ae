import { ApiError } from '../../api/client';
import { formatWait } from '../../components/format';

/**
 * What the sign-in form says when the API refused: its own words for a wrong password and a lock
 * (adding the wait when the text does not give it), a plain sentence for anything else.
 */
export function signInFailureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Signing in failed. Try again.';
  if (error.status === 429) {
    const wait = error.retryAfterSeconds;
    const text = error.message || 'Too many failed sign-ins.';
    return wait === undefined || /try again/i.test(text) ? text : `${text} Try again ${formatWait(wait)}.`;
  }
  if (error.status === 401) return error.message || 'Email or password is wrong';
  if (error.status === 0) return error.message;
  if (error.status >= 500) return 'The server could not sign you in right now. Try again in a moment.';
  return error.message;
}

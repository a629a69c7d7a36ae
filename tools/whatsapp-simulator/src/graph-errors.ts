import { randomBytes } from 'node:crypto';

/** The error object the Graph API answers with (https://developers.facebook.com/docs/graph-api/guides/error-handling). */
export interface GraphError {
  error: {
    message: string;
    type: 'OAuthException';
    code: number;
    error_subcode?: number;
    fbtrace_id: string;
  };
}

/** Meta's answer to a missing or wrong access token (HTTP 401). */
export function invalidTokenError(): GraphError {
  return graphError(190, 'Invalid OAuth access token.');
}

/** Meta's answer to a bad parameter (HTTP 400); the message says which one and why. */
export function invalidParameterError(problem: string, subcode?: number): GraphError {
  return graphError(100, `(#100) ${problem}`, subcode);
}

function graphError(code: number, message: string, subcode?: number): GraphError {
  return {
    error: {
      message,
      type: 'OAuthException',
      code,
      ...(subcode === undefined ? {} : { error_subcode: subcode }),
      fbtrace_id: randomBytes(12).toString('base64url'),
    },
  };
}

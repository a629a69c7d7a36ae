/**
 * A response given again exactly as it was given the first time (an idempotent retry): thrown
 * by a guard to answer without running the handler. Not an error: ApiExceptionFilter sends it
 * as it is, status, body and headers.
 */
export class ReplayedResponse extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super('replayed response');
    this.name = 'ReplayedResponse';
  }
}

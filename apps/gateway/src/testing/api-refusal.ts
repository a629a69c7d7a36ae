import { ApiError } from '@mp/http-kit';

/** For unit specs: the status and body of the ApiError `work` is refused with (it fails the spec if it is not refused so). */
export async function refusal(work: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return { status: error.getStatus(), body: error.getResponse() };
}

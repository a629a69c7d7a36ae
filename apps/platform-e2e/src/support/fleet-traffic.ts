// Single sends spread over a fleet's gateways until told to stop, as a client behind a load
// balancer would send them: a gateway that refuses the connection or answers 503 (it is shutting
// down) gets the send again on another; anything else that breaks a request is recorded.
import { ApiClient, type Company } from './api-client';

export interface AcceptedSend {
  to: string;
  text: string;
  messageId: string;
}

/** Why a request got no answer, for the errors a client cannot retry safely. */
function failureOf(error: unknown): { retry: boolean; reason: string } {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  // Nothing was sent: the server was no longer listening.
  if (code === 'ECONNREFUSED') return { retry: true, reason: code };
  return { retry: false, reason: `${String(error)} (${code || cause?.message || 'no cause'})` };
}

export class FleetTraffic {
  readonly accepted: AcceptedSend[] = [];
  /** Requests cut off without an answer (a connection reset), or answered other than 200 / 503. */
  readonly failures: string[] = [];
  /** Sends refused by a gateway shutting down (refused connection or 503), then sent elsewhere. */
  retried = 0;
  private stopped = false;
  private next = 0;
  private turn = 0;
  private running: Promise<void>[] = [];

  constructor(
    private readonly gateways: () => string[],
    private readonly company: () => Company,
    private readonly numberAt: (i: number) => string,
    /** Fields besides to, message and from for the i-th send. */
    private readonly extra: (i: number) => Record<string, unknown> = () => ({}),
  ) {}

  start(concurrency: number): void {
    this.running = Array.from({ length: concurrency }, () => this.loop());
  }

  /** Resolves once the sends under way are answered. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  private async loop(): Promise<void> {
    while (!this.stopped) await this.sendOne(this.next++);
  }

  private async sendOne(i: number): Promise<void> {
    const to = this.numberAt(i);
    const text = `Shutdown test ${i}`;
    for (let attempt = 0; attempt < 20; attempt++) {
      const urls = this.gateways();
      const api = new ApiClient(() => urls[this.turn++ % urls.length], this.company);
      try {
        const answer = await api.post<{ data?: { message_id?: string } }>(
          '/sms/send',
          { to, message: text, from: 'Fleet', ...this.extra(i) },
          { signal: AbortSignal.timeout(60_000) },
        );
        if (answer.status === 503) {
          this.retried += 1;
          continue;
        }
        if (answer.status === 200 && answer.body.data?.message_id) this.accepted.push({ to, text, messageId: answer.body.data.message_id });
        else this.failures.push(`${to}: ${answer.status} ${answer.text.slice(0, 200)}`);
        return;
      } catch (error) {
        const failure = failureOf(error);
        if (!failure.retry) {
          this.failures.push(`${to}: ${failure.reason}`);
          return;
        }
        this.retried += 1;
        await new Promise((wake) => setTimeout(wake, 50));
      }
    }
    this.failures.push(`${to}: no gateway took it in 20 attempts`);
  }
}

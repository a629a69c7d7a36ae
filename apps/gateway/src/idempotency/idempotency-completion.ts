import type { FastifyInstance } from 'fastify';
import type { IdempotentRequest } from './idempotent-request';
import type { IdempotencyStore } from './idempotency.store';

/**
 * Stores the response of each request that claimed an Idempotency-Key (IdempotencyGuard) before
 * it leaves, so a retry gets it again; a failed request (4xx, 5xx) releases its key instead, so
 * a retry runs again. A Fastify hook on the app, installed before it listens.
 */
export function completeIdempotentRequests(fastify: FastifyInstance, store: IdempotencyStore): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    const claim = (request as IdempotentRequest).idempotency;
    if (!claim) return payload;
    (request as IdempotentRequest).idempotency = undefined;
    clearInterval(claim.renewal);
    const body = typeof payload === 'string' ? jsonOrText(payload) : payload;
    // The response leaves either way: it is what happened. A key that could not be stored is
    // released, as a failed request's is, so that a retry is not refused for a day.
    const stored =
      reply.statusCode < 400
        ? store.complete(claim, reply.statusCode, body).then(
            () => true,
            () => false,
          )
        : false;
    if (!(await stored)) await store.release(claim).catch(() => undefined);
    return payload;
  });
  // A request whose response was never sent (its client went away first) stops renewing its lease.
  fastify.addHook('onResponse', async (request) => {
    const claim = (request as IdempotentRequest).idempotency;
    if (claim) clearInterval(claim.renewal);
  });
}

function jsonOrText(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

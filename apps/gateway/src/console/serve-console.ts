// The web console (apps/dashboard, built by Vite into dist/dashboard) served at /dashboard/: its
// hashed assets kept by browsers for a year, index.html revalidated on every visit and answered
// for every other path under /dashboard/ (the console's own pages: /dashboard/keys,
// /dashboard/invite/{token}), except /dashboard/api/*, which is the dashboard API's.
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';

export const CONSOLE_PATH = '/dashboard/';
const API_PREFIX = 'api';
const INDEX = 'index.html';
const HASHED_ASSETS = 'assets';

/** The page's own rules: nothing but this origin's scripts, no framing, no referrer. */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    // Mantine sets styles through style attributes and a <style> element of CSS variables.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Invitation links carry a token in their path.
  'referrer-policy': 'no-referrer',
};

export interface ConsoleServing {
  /** False when dist/dashboard has no index.html: /dashboard/ then answers 503 saying how to build it. */
  built: boolean;
}

function isApiPath(rest: string): boolean {
  return rest === API_PREFIX || rest.startsWith(`${API_PREFIX}/`);
}

/** Registers the console's routes on the gateway's Fastify instance (before it listens). */
export async function serveConsole(fastify: FastifyInstance, dir: string): Promise<ConsoleServing> {
  fastify.get('/dashboard', (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.url.indexOf('?');
    return reply.redirect(`${CONSOLE_PATH}${query >= 0 ? request.url.slice(query) : ''}`, 301);
  });
  if (!existsSync(join(dir, INDEX))) {
    fastify.get('/dashboard/*', (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
      if (isApiPath(request.params['*'])) return reply.callNotFound();
      return reply.status(503).send({ error: 'The console is not built: run `npm run build` (it builds apps/dashboard into dist/dashboard)' });
    });
    return { built: false };
  }

  const assets = join(dir, HASHED_ASSETS);
  await fastify.register(fastifyStatic, {
    root: assets,
    prefix: `${CONSOLE_PATH}${HASHED_ASSETS}/`,
    index: false,
    list: false,
    cacheControl: false,
    // Every asset's name carries a hash of its content: a new build has new names. The other
    // files (index.html, the icon, sent with reply.sendFile) are revalidated on every visit.
    setHeaders: (reply, path) => {
      void reply.header('cache-control', path.startsWith(`${assets}${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Files beside index.html (the icon); read once: a new build keeps their names.
  const rootFiles = new Set(readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isFile() && entry.name !== INDEX ? [entry.name] : [])));
  fastify.get('/dashboard/*', (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    const rest = request.params['*'];
    if (isApiPath(rest)) return reply.callNotFound();
    if (rootFiles.has(rest)) return reply.sendFile(rest, dir, { cacheControl: false });
    return reply.headers(CONSOLE_SECURITY_HEADERS).sendFile(INDEX, dir, { cacheControl: false });
  });
  return { built: true };
}

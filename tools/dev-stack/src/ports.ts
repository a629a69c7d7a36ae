import { createServer, Socket } from 'node:net';

export type PortCheck = (port: number) => Promise<boolean>;

/** Whether nothing listens on host:port, found by trying to listen there. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * The port to use: the preferred one (the port used last time) when free, otherwise the first
 * free one from `first` upward, trying at most `attempts` ports.
 */
export async function choosePort(preferred: number | undefined, first: number, isFree: PortCheck = isPortFree, attempts = 100): Promise<number> {
  if (preferred !== undefined && (await isFree(preferred))) return preferred;
  for (let port = first; port < first + attempts; port += 1) {
    if (port !== preferred && (await isFree(port))) return port;
  }
  throw new Error(`No free port between ${first} and ${first + attempts - 1}`);
}

/** Whether something accepts TCP connections on host:port. */
export function acceptsConnections(port: number, host = '127.0.0.1', timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (result: boolean): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

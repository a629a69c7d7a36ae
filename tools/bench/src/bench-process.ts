// What every benchmark needs from its surroundings: the workspace, its settings from the
// environment, its progress lines, the compiled admin tool, and the running services.
//
// libs/testing has a repoRoot (not exported by @mp/testing) and a runAdmin, but its runAdmin finds
// the workspace relative to its own file, which is dist/out once compiled, where `npm run bench`
// runs it: the bench keeps its own.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Redis from 'ioredis';

export function repoRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) throw new Error('bench: no nx.json above tools/bench');
  }
}

export function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`${name}=${JSON.stringify(value)} is not a positive number`);
  return number;
}

export function say(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** The compiled admin tool, as an operator runs it; its one JSON object. */
export function runAdmin(root: string, args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', join(root, 'tools/runtime/register.js'), join(root, 'dist/out/tools/admin/src/main.js'), ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolve(JSON.parse(stdout) as Record<string, unknown>);
      reject(new Error(`admin ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
    });
  });
}

export async function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => {
        await response.body?.cancel();
        return response.status;
      },
      () => 0,
    );
    if (status === 200) return;
    await new Promise((wake) => setTimeout(wake, 250));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

export async function redisVersion(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('server');
    return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  } finally {
    redis.disconnect();
  }
}

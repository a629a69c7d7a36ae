import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

export interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as the one JSON object the tool promises (undefined when it is not). */
  json: Record<string, unknown> | undefined;
}

/** Runs the compiled admin tool (after `npm run build`) as an operator would, with the run's env. */
export function runAdmin(args: string[], env: Record<string, string> = {}): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', join(ROOT, 'tools/runtime/register.js'), join(ROOT, 'dist/out/tools/admin/src/main.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, json: parseSingleJsonLine(stdout) }));
  });
}

function parseSingleJsonLine(stdout: string): Record<string, unknown> | undefined {
  const lines = stdout.split('\n').filter((line) => line.length > 0);
  if (lines.length !== 1) return undefined;
  try {
    const value: unknown = JSON.parse(lines[0]);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Like runAdmin, but fails the test unless the command succeeded with one JSON object. */
export async function admin(args: string[], env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const run = await runAdmin(args, env);
  if (run.code !== 0 || !run.json) {
    throw new Error(`admin ${args.join(' ')} exited ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  }
  return run.json;
}

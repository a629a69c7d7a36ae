// A throwaway Redis Cluster for tests: Debian's redis-server in cluster mode, three masters (no
// replicas) on free loopback ports, data in a temporary directory, joined with
// `redis-cli --cluster create`. Nothing is persisted; stop() removes everything.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stopChild, waitFor } from './service-process';
import { freePort } from './stack';

const run = promisify(execFile);

export interface RedisClusterNode {
  host: string;
  port: number;
}

export interface RunningRedisCluster {
  /** REDIS_URL for the apps: `redis+cluster://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3`. */
  url: string;
  nodes: RedisClusterNode[];
  /** Stops every node (SIGTERM, then SIGKILL) and removes their directory. */
  stop(): Promise<void>;
}

export interface RedisClusterOptions {
  /** Masters (default 3, the fewest Redis accepts). */
  nodes?: number;
}

/** Starts a Redis Cluster and resolves once every node reports cluster_state:ok. Needs redis-server and redis-cli on the PATH. */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RunningRedisCluster> {
  const count = options.nodes ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'mp-redis-cluster-'));
  const children: ChildProcess[] = [];
  const nodes: RedisClusterNode[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++) {
      // The cluster bus port is given too: port + 10000, the default, may be past 65535.
      const [port, busPort] = [await freePort(), await freePort()];
      const nodeDir = join(dir, String(port));
      mkdirSync(nodeDir);
      children.push(spawnNode(port, busPort, nodeDir));
      nodes.push({ host: '127.0.0.1', port });
    }
    await Promise.all(nodes.map((node) => waitFor(() => cli(node, 'ping').then((out) => out === 'PONG'), `redis-server on ${node.port}`)));
    const addresses = nodes.map((node) => `${node.host}:${node.port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    await Promise.all(
      nodes.map((node) => waitFor(() => cli(node, 'cluster', 'info').then((out) => out.includes('cluster_state:ok')), `the cluster at ${node.port}`)),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis+cluster://${nodes.map((node) => `${node.host}:${node.port}`).join(',')}`, nodes, stop };
}

function spawnNode(port: number, busPort: number, dir: string): ChildProcess {
  const args = ['--port', String(port), '--cluster-port', String(busPort), '--bind', '127.0.0.1', '--dir', dir];
  args.push('--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-node-timeout', '5000');
  args.push('--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction');
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  child.unref();
  return child;
}

async function cli(node: RedisClusterNode, ...command: string[]): Promise<string> {
  try {
    const { stdout } = await run('redis-cli', ['-h', node.host, '-p', String(node.port), ...command]);
    return stdout.trim();
  } catch {
    return '';
  }
}

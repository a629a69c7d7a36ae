import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface GraphNode {
  type: 'app' | 'lib' | 'e2e';
  data: { tags?: string[]; root: string };
}
interface Graph {
  nodes: Record<string, GraphNode>;
  dependencies: Record<string, { target: string }[]>;
}

const ROOT = join(__dirname, '..', '..', '..');
const SERVICE_APPS = ['gateway', 'otp', 'sms-dispatcher', 'billing', 'webhook-notifier'];

/** The shape `nx graph` shows: apps stand on libs, and no lib stands on an app. */
describe('Nx project graph', () => {
  let graph: Graph;

  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'nx-graph-'));
    try {
      const file = join(dir, 'graph.json');
      execFileSync(process.execPath, [require.resolve('nx/bin/nx', { paths: [ROOT] }), 'graph', `--file=${file}`], {
        cwd: ROOT,
        stdio: 'ignore',
        env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      });
      graph = (JSON.parse(readFileSync(file, 'utf8')) as { graph: Graph }).graph;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  const tagsOf = (name: string) => graph.nodes[name]?.data.tags ?? [];
  const depsOf = (name: string) => (graph.dependencies[name] ?? []).map((d) => d.target).filter((t) => t in graph.nodes);

  it('has the five service apps, each depending on libs', () => {
    for (const app of SERVICE_APPS) {
      expect(graph.nodes[app]?.type).toBe('app');
      expect(tagsOf(app)).toContain('type:app');
      const deps = depsOf(app);
      expect(deps.length).toBeGreaterThan(0);
      for (const dep of deps) expect(graph.nodes[dep].type).toBe('lib');
    }
  });

  it('has no lib depending on an app', () => {
    const offenders = Object.keys(graph.nodes)
      .filter((name) => graph.nodes[name].type === 'lib')
      .flatMap((lib) =>
        depsOf(lib)
          .filter((dep) => graph.nodes[dep].type !== 'lib')
          .map((dep) => `${lib} -> ${dep}`),
      );
    expect(offenders).toEqual([]);
  });

  it('tags every project with one scope and one type', () => {
    for (const name of Object.keys(graph.nodes)) {
      const tags = tagsOf(name);
      expect({ name, scopes: tags.filter((t) => t.startsWith('scope:')).length }).toEqual({ name, scopes: 1 });
      expect({ name, types: tags.filter((t) => t.startsWith('type:')).length }).toEqual({ name, types: 1 });
    }
  });

  it('keeps domain and contract libs free of I/O libs', () => {
    const ioTypes = ['type:data-access', 'type:feature', 'type:app', 'type:tool'];
    for (const name of Object.keys(graph.nodes).filter((n) => tagsOf(n).some((t) => t === 'type:domain' || t === 'type:contracts'))) {
      for (const dep of depsOf(name)) expect({ name, dep, tags: tagsOf(dep).filter((t) => ioTypes.includes(t)) }).toEqual({ name, dep, tags: [] });
    }
  });
});

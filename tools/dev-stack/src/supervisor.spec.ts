import { PassThrough } from 'node:stream';
import { Output } from './output';
import { isAlive } from './postmaster-pid';
import { describeExit, ExitInfo, ProcessSpec, Supervisor } from './supervisor';

function capture(): { output: Output; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { output: new Output(8, false, stream, stream), text: () => text };
}

function node(name: string, role: ProcessSpec['role'], script: string, extra: Partial<ProcessSpec> = {}): ProcessSpec {
  return { name, role, command: process.execPath, args: ['-e', script], ...extra };
}

const LINGER = "process.on('SIGTERM', () => { console.log('bye'); process.exit(0); }); setInterval(() => {}, 1000); console.log('up');";

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('describeExit', () => {
  it('names the exit code, the signal or the failure', () => {
    expect(describeExit({ code: 2, signal: null })).toBe('exited with code 2');
    expect(describeExit({ code: null, signal: 'SIGKILL' })).toBe('was killed by SIGKILL');
    expect(describeExit({ code: null, signal: null, error: new Error('spawn x ENOENT') })).toBe('failed to start: spawn x ENOENT');
  });
});

describe('Supervisor', () => {
  it('prefixes every line a process writes with its name', async () => {
    const { output, text } = capture();
    const supervisor = new Supervisor(output, () => undefined);
    const managed = supervisor.spawn(node('app', 'app', "console.log('one\\ntwo'); console.error('oops'); process.stdout.write('tail')"));
    await managed.exited;
    await waitFor(() => text().includes('tail'));
    expect(text()).toContain('[app]      one\n[app]      two\n');
    expect(text()).toContain('[app]      oops\n');
    expect(text()).toContain('[app]      tail\n');
  });

  it('reports a process that exits on its own', async () => {
    const exits: [string, ExitInfo][] = [];
    const supervisor = new Supervisor(capture().output, (name, exit) => exits.push([name, exit]));
    await supervisor.spawn(node('crashy', 'app', 'process.exit(3)')).exited;
    expect(exits).toEqual([['crashy', { code: 3, signal: null }]]);
  });

  it('reports a command that cannot be started', async () => {
    const exits: string[] = [];
    const supervisor = new Supervisor(capture().output, (name, exit) => exits.push(`${name} ${describeExit(exit)}`));
    await supervisor.spawn({ name: 'ghost', role: 'app', command: '/nonexistent/program', args: [] }).exited;
    expect(exits).toEqual([expect.stringMatching(/^ghost failed to start: .*ENOENT/)]);
  });

  it('stops the apps first, then the services, newest first, without reporting them', async () => {
    const { output, text } = capture();
    const unexpected: string[] = [];
    const supervisor = new Supervisor(output, (name) => unexpected.push(name));
    const order: string[] = [];
    const specs = [
      node('db', 'service', LINGER),
      node('cache', 'service', LINGER),
      node('app1', 'app', LINGER),
      node('app2', 'app', LINGER, { signalGroup: true }),
    ];
    const managed = specs.map((spec) => supervisor.spawn(spec));
    managed.forEach((item) => void item.exited.then(() => order.push(item.spec.name)));
    await waitFor(() => (text().match(/up/g) ?? []).length === 4);
    await supervisor.stopAll();
    expect(order.slice(2)).toEqual(['cache', 'db']);
    expect(order.slice(0, 2).sort()).toEqual(['app1', 'app2']);
    expect(unexpected).toEqual([]);
    expect(text()).toContain('[stack]    stopped app1');
    expect(() => supervisor.spawn(node('late', 'app', LINGER))).toThrow('the stack is stopping');
  });

  it('sends afterExitSignal to what a stopped process left behind in its group', async () => {
    const { output, text } = capture();
    const supervisor = new Supervisor(output, () => undefined);
    const script =
      "const c = require('child_process').spawn('sleep', ['30'], { stdio: 'ignore' }); console.log('grandchild ' + c.pid);" +
      "process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000);";
    supervisor.spawn(node('parent', 'service', script, { afterExitSignal: 'SIGKILL' }));
    await waitFor(() => /grandchild \d+/.test(text()));
    const grandchild = Number(/grandchild (\d+)/.exec(text())?.[1]);
    expect(isAlive(grandchild)).toBe(true);
    await supervisor.stopAll();
    await waitFor(() => !isAlive(grandchild));
  });

  it('kills a process that ignores its stop signal', async () => {
    const { output, text } = capture();
    const supervisor = new Supervisor(output, () => undefined);
    const stubborn = supervisor.spawn(
      node('stubborn', 'app', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('up')", { stopTimeoutMs: 300 }),
    );
    await waitFor(() => text().includes('up'));
    await supervisor.stopAll();
    expect((await stubborn.exited).signal).toBe('SIGKILL');
    expect(text()).toContain('stubborn did not stop within 0.3 s; killing it');
  });
});

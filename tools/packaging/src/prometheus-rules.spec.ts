// Runs Prometheus's own tool on k8s/monitoring: the rules parse and type-check as Prometheus
// reads them, and the alerts fire (and stay quiet) on the synthetic series of
// messaging.rules.test.yml. promtool comes with Debian's `prometheus` package (.ci/run installs it).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { K8S } from './platform-facts';

const MONITORING = join(K8S, 'monitoring');

function promtool(...args: string[]): string {
  try {
    return execFileSync('promtool', args, { cwd: MONITORING, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: string; stdout?: string; stderr?: string };
    if (code === 'ENOENT') throw new Error('promtool not found: apt-get install prometheus (Debian), as .ci/run does');
    throw new Error(`promtool ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

describe('k8s/monitoring rules under promtool', () => {
  it('messaging.rules.yml is valid Prometheus rules', () => {
    expect(promtool('check', 'rules', 'messaging.rules.yml')).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('every alert fires on its synthetic series, with its labels and text, and not on the calm ones', () => {
    expect(promtool('test', 'rules', 'messaging.rules.test.yml')).toContain('SUCCESS');
  }, 60_000);
});

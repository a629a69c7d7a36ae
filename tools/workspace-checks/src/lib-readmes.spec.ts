import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** Every Nx project under libs/: each directory with a project.json. */
function libRoots(dir = 'libs'): string[] {
  if (existsSync(join(ROOT, dir, 'project.json'))) return [dir];
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .flatMap((entry) => libRoots(`${dir}/${entry.name}`));
}

/** The import aliases of tsconfig.base.json by the lib root they point into. */
function aliasesByRoot(): Map<string, string[]> {
  const { compilerOptions } = JSON.parse(readFileSync(join(ROOT, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
  const byRoot = new Map<string, string[]>();
  for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
    const root = target.replace(/\/src\/index(\.ts)?$/, '');
    byRoot.set(root, [...(byRoot.get(root) ?? []), alias]);
  }
  return byRoot;
}

describe('lib READMEs', () => {
  const libs = libRoots();
  const aliases = aliasesByRoot();

  it('finds the libs and their aliases', () => {
    expect(libs).toEqual(expect.arrayContaining(['libs/carrier', 'libs/messaging/domain', 'libs/webhooks/util']));
    expect(aliases.get('libs/messaging/domain')).toEqual(['@mp/messaging-domain']);
  });

  it('has a README.md in every lib', () => {
    const missing = libs.filter((lib) => !existsSync(join(ROOT, lib, 'README.md')));
    expect(missing).toEqual([]);
  });

  it("names the lib's import alias in its README", () => {
    const problems = libs
      .filter((lib) => existsSync(join(ROOT, lib, 'README.md')))
      .flatMap((lib) => {
        const own = aliases.get(lib) ?? [];
        if (own.length === 0) return [`${lib} has no import alias in tsconfig.base.json`];
        const readme = readFileSync(join(ROOT, lib, 'README.md'), 'utf8');
        return own.filter((alias) => !readme.includes(`\`${alias}\``)).map((alias) => `${lib}/README.md does not name ${alias}`);
      });
    expect(problems).toEqual([]);
  });

  it("gives the lib's Nx tags as its project.json has them", () => {
    const problems = libs
      .filter((lib) => existsSync(join(ROOT, lib, 'README.md')))
      .flatMap((lib) => {
        const { tags } = JSON.parse(readFileSync(join(ROOT, lib, 'project.json'), 'utf8')) as { tags: string[] };
        const line = `tags ${tags.map((tag) => `\`${tag}\``).join(', ')}.`;
        return readFileSync(join(ROOT, lib, 'README.md'), 'utf8').includes(line) ? [] : [`${lib}/README.md does not say: ${line}`];
      });
    expect(problems).toEqual([]);
  });
});

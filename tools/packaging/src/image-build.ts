// What `npm run build` produces and what the image runs from it: the build's inputs and output
// directories (read from package.json and the Vite config), the file docker/entrypoint.sh starts
// for a command, the source a compiled file comes from, and the packages that source loads.
import { builtinModules } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { DOCKER, read, ROOT } from './platform-facts';

interface PackageJson {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
}

export const packageJson = (): PackageJson => JSON.parse(read(join(ROOT, 'package.json'))) as PackageJson;

export interface ServerBuild {
  /** Directories swc compiles, relative to the repository root. */
  inputs: string[];
  outDir: string;
  ignored: string[];
}

/** The scripts `npm run <name>` runs, following `npm run [--silent] <other>` and `&&`. */
export function scriptCommands(name: string): string[] {
  const script = packageJson().scripts[name];
  if (script === undefined) throw new Error(`package.json has no script ${name}`);
  return script.split('&&').flatMap((part) => {
    const nested = /^\s*npm run (?:--silent )?([\w:-]+)\s*$/.exec(part);
    return nested ? scriptCommands(nested[1]) : [part.trim()];
  });
}

/** The swc command of `npm run build`: what it compiles, to where, leaving what out. */
export function serverBuild(): ServerBuild {
  const swc = scriptCommands('build').find((command) => command.startsWith('swc '));
  if (!swc) throw new Error('npm run build runs no swc');
  const words = swc.split(/\s+/);
  const outDir = words[words.indexOf('-d') + 1];
  const inputs = words.slice(
    1,
    words.findIndex((word) => word.startsWith('-')),
  );
  const ignored = /--ignore '([^']*)'/.exec(swc)?.[1].split(',') ?? [];
  return { inputs, outDir, ignored };
}

/** Where `npm run build`'s Vite build writes the web console, relative to the repository root. */
export function consoleOutDir(): string {
  const vite = scriptCommands('build').find((command) => command.startsWith('vite build'));
  const config = /--config (\S+)/.exec(vite ?? '')?.[1];
  if (!config) throw new Error('npm run build runs no vite build --config');
  const outDir = /outDir:\s*fileURLToPath\(new URL\('([^']+)'/.exec(read(join(ROOT, config)))?.[1];
  if (!outDir) throw new Error(`${config}: no outDir`);
  return relative(ROOT, join(ROOT, dirname(config), outDir));
}

/** The source file swc compiles to a path under its output directory (dist/out/x/y.js -> x/y.ts). */
export function sourceOf(compiled: string): string | undefined {
  const { outDir } = serverBuild();
  const path = normalize(compiled);
  if (!path.startsWith(`${outDir}/`) || !path.endsWith('.js')) return undefined;
  return `${path.slice(outDir.length + 1, -'.js'.length)}.ts`;
}

/** The compiled file docker/entrypoint.sh runs for a container command (`gateway`, `migrate`, ...). */
export function entrypointMain(command: string): string {
  const entrypoint = read(join(DOCKER, 'entrypoint.sh'));
  const adminCli = /^admin_cli=(\S+)$/m.exec(entrypoint)?.[1];
  const adminCommands = [...entrypoint.matchAll(/^\s*([\w-]+)\)\s*\n\s*exec node [^\n]*"\$admin_cli"/gm)].map(([, name]) => name);
  if (adminCli && adminCommands.includes(command)) return adminCli;
  const main = /^main="([^"]+)"$/m.exec(entrypoint)?.[1];
  if (!main) throw new Error('docker/entrypoint.sh: no main="..." for an app');
  return main.replace('$APP', command);
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)'|\brequire\('([^']+)'\)|\bimport\('([^']+)'\)/g;

function aliases(): Record<string, string> {
  const { compilerOptions } = JSON.parse(read(join(ROOT, 'tsconfig.base.json'))) as { compilerOptions: { paths: Record<string, string[]> } };
  return Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, target]));
}

function resolveSource(from: string, specifier: string, paths: Record<string, string>): string | undefined {
  const base = specifier in paths ? join(ROOT, paths[specifier]) : specifier.startsWith('.') ? join(dirname(from), specifier) : undefined;
  if (base === undefined) return undefined;
  return [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

/** The npm packages a source file loads at run time, following its workspace imports (type-only imports left out). */
export function runtimePackages(entry: string): Set<string> {
  const paths = aliases();
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [join(ROOT, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of read(file).matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      const local = resolveSource(file, specifier, paths);
      if (local) pending.push(local);
      else if (!specifier.startsWith('.') && !(specifier in paths)) packages.add(packageName(specifier));
    }
  }
  return new Set([...packages].filter((name) => !builtinModules.includes(name) && !name.startsWith('node:')));
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

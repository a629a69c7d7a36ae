// Reads a Dockerfile as data: its stages, their instructions, the environment the image sets.
import { join } from 'node:path';
import { DOCKER, read } from './platform-facts';

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  base: string;
  name?: string;
  instructions: Instruction[];
}

/**
 * Splits a Dockerfile into stages of instructions: comments dropped, continuation lines joined,
 * ${ARG} in FROM replaced by the ARG's default.
 */
export function parseDockerfile(text: string): Stage[] {
  const logicalLines: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (line.trimEnd().endsWith('\\')) {
      pending += line.trimEnd().slice(0, -1) + ' ';
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    if (full !== '') logicalLines.push(full);
  }
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  for (const line of logicalLines) {
    const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: rest };
    if (instruction.keyword === 'FROM') {
      const [, base, name] = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest) ?? [];
      stages.push({ base: base.replace(/\$\{(\w+)\}/g, (_, arg: string) => args.get(arg) ?? ''), name, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [name, value = ''] = rest.split('=');
      args.set(name, value);
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return stages;
}

/** KEY=value pairs of a stage's ENV instructions. */
export function stageEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of stage.instructions.filter(({ keyword }) => keyword === 'ENV')) {
    for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) env[key] = value;
  }
  return env;
}

/** The environment docker/Dockerfile's runtime stage (the image every process runs) sets. */
export function imageEnv(): Record<string, string> {
  const stages = parseDockerfile(read(join(DOCKER, 'Dockerfile')));
  return stageEnv(stages[stages.length - 1]);
}

// The example files mark what an operator fills in with the placeholder change-me (CHANGE_ME),
// and say in a comment above how to make the value. Filling them as those comments say is what
// "an operator who followed the instructions" means to the deployment tests.
import { PLACEHOLDER } from '@mp/config';
import { randomBytes } from 'node:crypto';

/** `openssl rand -base64 N` / `openssl rand -hex N`, as the example files' comments write it. */
const GENERATE = /openssl rand -(base64|hex) (\d+)/g;

/**
 * The comment lines that belong to the line at `index`: the paragraph (lines up to the previous
 * blank line) above it, in order.
 */
function commentsAbove(lines: string[], index: number): string[] {
  const comments: string[] = [];
  for (let at = index - 1; at >= 0 && lines[at].trim() !== ''; at--) {
    if (/^\s*#/.test(lines[at])) comments.unshift(lines[at]);
  }
  return comments;
}

/**
 * What an operator puts in place of a placeholder: the output of the last `openssl rand` command
 * in the comments of the key's paragraph, else a value of their own (their carrier's host, the id
 * Meta shows them), here a stand-in that names the key.
 */
export function fillFor(text: string, key: string): string {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => new RegExp(`^\\s*${key}\\s*[=:]`).test(line));
  if (index < 0) throw new Error(`${key} is not defined in the file`);
  const commands = [...commentsAbove(lines, index).join('\n').matchAll(GENERATE)];
  const command = commands[commands.length - 1];
  if (!command) return `operator-set-${key.toLowerCase().replace(/_/g, '-')}`;
  const [, encoding, bytes] = command;
  return randomBytes(Number(bytes)).toString(encoding as 'base64' | 'hex');
}

/** The values with every placeholder replaced as the file's comments say. */
export function fillPlaceholders(values: Record<string, string>, text: string): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, PLACEHOLDER.test(value.trim()) ? fillFor(text, key) : value]));
}

export function placeholderKeys(values: Record<string, string>): string[] {
  return Object.entries(values)
    .filter(([, value]) => PLACEHOLDER.test(value.trim()))
    .map(([key]) => key);
}

// Turns the output of the stack's processes into readable lines: split into whole lines, each
// prefixed with the process name, and — on a terminal — pino's JSON rendered compactly.

/** Splits a stream of text chunks into whole lines (without their line ending). */
export class LineSplitter {
  private pending = '';

  push(chunk: string): string[] {
    const text = this.pending + chunk;
    const lines = text.split(/\r?\n/);
    this.pending = lines.pop() ?? '';
    return lines;
  }

  /** The last, unterminated line, if any; call when the stream ends. */
  flush(): string[] {
    const rest = this.pending;
    this.pending = '';
    return rest === '' ? [] : [rest];
  }
}

/** `[name]` padded so that the text after every process's prefix starts in the same column. */
export function formatPrefix(name: string, width: number): string {
  return `[${name}]`.padEnd(width + 2) + ' ';
}

/** The width to pad names to: the longest of them. */
export function nameWidth(names: readonly string[]): number {
  return names.reduce((width, name) => Math.max(width, name.length), 0);
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLORS: Record<string, string> = { TRACE: '90', DEBUG: '36', INFO: '32', WARN: '33', ERROR: '31', FATAL: '35' };

/** Fields every line carries, already shown otherwise or of no interest on a terminal. */
const HIDDEN_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'app', 'v', 'err']);

type PinoRecord = Record<string, unknown> & { level: number | string };

function parsePino(line: string): PinoRecord | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const record = value as Record<string, unknown>;
    const level = record['level'];
    return typeof level === 'number' || typeof level === 'string' ? (record as PinoRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** HH:MM:SS in local time, from pino's epoch milliseconds or ISO time. */
export function formatTime(time: unknown): string {
  if (typeof time !== 'number' && typeof time !== 'string') return '--:--:--';
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return '--:--:--';
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function levelName(level: number | string): string {
  return typeof level === 'number' ? (LEVELS[level] ?? `L${level}`) : level.toUpperCase();
}

function formatValue(key: string, value: unknown): string {
  if (key === 'req' && typeof value === 'object' && value !== null) {
    const req = value as { method?: unknown; url?: unknown };
    if (typeof req.method === 'string' && typeof req.url === 'string') return `${req.method} ${req.url}`;
  }
  if (key === 'res' && typeof value === 'object' && value !== null) {
    const status = (value as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number') return String(status);
  }
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? String(value);
}

function formatError(err: unknown): string[] {
  if (typeof err !== 'object' || err === null) return err === undefined ? [] : [`  err: ${String(err)}`];
  const { stack, type, message } = err as { stack?: unknown; type?: unknown; message?: unknown };
  if (typeof stack === 'string') return stack.split('\n').map((line) => `  ${line.trimEnd()}`);
  return [`  ${typeof type === 'string' ? type : 'Error'}: ${String(message)}`];
}

/**
 * A pino JSON line rendered as `HH:MM:SS LEVEL message key=value ...`, followed by the lines of the
 * error's stack if it has one; undefined when the line is not a pino record.
 */
export function formatPinoLine(line: string, color = false): string[] | undefined {
  const record = parsePino(line);
  if (!record) return undefined;
  const level = levelName(record.level);
  const shownLevel = color && COLORS[level] ? `\u001b[${COLORS[level]}m${level.padEnd(5)}\u001b[0m` : level.padEnd(5);
  const fields = Object.entries(record)
    .filter(([key, value]) => !HIDDEN_FIELDS.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${formatValue(key, value)}`);
  const msg = record['msg'] === undefined ? '' : String(record['msg']);
  const head = [formatTime(record['time']), shownLevel, msg, ...fields].filter((part) => part !== '').join(' ');
  return [head, ...formatError(record['err'])];
}

/** One line of a process's output as it is to be shown (several lines when a stack is shown). */
export function renderLine(line: string, pretty: boolean, color = pretty): string[] {
  if (!pretty) return [line];
  return formatPinoLine(line, color) ?? [line];
}

/** The text to write for one line of a process's output: prefixed, newline-terminated. */
export function prefixLine(name: string, width: number, line: string, pretty: boolean): string {
  const prefix = formatPrefix(name, width);
  return renderLine(line, pretty)
    .map((rendered) => `${prefix}${rendered}\n`)
    .join('');
}

import type { Readable, Writable } from 'node:stream';
import { LineSplitter, prefixLine } from './log-prefixer';

/** The name the dev-stack's own messages are prefixed with. */
export const STACK_NAME = 'stack';

/** Where every line the stack shows goes: the processes' output and the stack's own messages. */
export class Output {
  constructor(
    private readonly width: number,
    private readonly pretty: boolean,
    private readonly stdout: Writable = process.stdout,
    private readonly stderr: Writable = process.stderr,
  ) {}

  /** Copies a process's stream line by line, each prefixed with the process's name. */
  attach(name: string, stream: Readable, to: 'stdout' | 'stderr'): void {
    const splitter = new LineSplitter();
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => splitter.push(chunk).forEach((line) => this.line(name, line, to)));
    stream.on('end', () => splitter.flush().forEach((line) => this.line(name, line, to)));
  }

  line(name: string, line: string, to: 'stdout' | 'stderr' = 'stdout'): void {
    (to === 'stdout' ? this.stdout : this.stderr).write(prefixLine(name, this.width, line, this.pretty));
  }

  info(message: string): void {
    this.line(STACK_NAME, message);
  }

  warn(message: string): void {
    this.line(STACK_NAME, `warning: ${message}`, 'stderr');
  }

  error(message: string): void {
    this.line(STACK_NAME, `error: ${message}`, 'stderr');
  }
}

import { formatPinoLine, formatPrefix, formatTime, LineSplitter, nameWidth, prefixLine, renderLine } from './log-prefixer';

describe('LineSplitter', () => {
  it('returns whole lines and keeps a partial one for the next chunk', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('one\ntw')).toEqual(['one']);
    expect(splitter.push('o\r\nthree\n')).toEqual(['two', 'three']);
    expect(splitter.push('four')).toEqual([]);
    expect(splitter.flush()).toEqual(['four']);
    expect(splitter.flush()).toEqual([]);
  });

  it('keeps empty lines', () => {
    expect(new LineSplitter().push('a\n\nb\n')).toEqual(['a', '', 'b']);
  });
});

describe('prefixes', () => {
  it('pads [name] so that the text after every prefix lines up', () => {
    const width = nameWidth(['stack', 'gateway', 'otp']);
    expect(width).toBe(7);
    expect(formatPrefix('otp', width)).toBe('[otp]     ');
    expect(formatPrefix('gateway', width)).toBe('[gateway] ');
    expect(formatPrefix('otp', width).length).toBe(formatPrefix('gateway', width).length);
  });

  it('passes JSON through unchanged when not on a terminal', () => {
    const line = '{"level":30,"time":1,"msg":"hello"}';
    expect(prefixLine('otp', 3, line, false)).toBe(`[otp] ${line}\n`);
  });

  it('prefixes every line of a rendered record', () => {
    const line = JSON.stringify({ level: 50, time: 0, msg: 'boom', err: { type: 'Error', message: 'x', stack: 'Error: x\n    at f' } });
    const text = prefixLine('gateway', 7, line, true);
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .every((part) => part.startsWith('[gateway] ')),
    ).toBe(true);
  });
});

describe('formatTime', () => {
  it('shows local HH:MM:SS from epoch milliseconds or an ISO string', () => {
    const time = new Date(2024, 0, 2, 9, 5, 7);
    expect(formatTime(time.getTime())).toBe('09:05:07');
    expect(formatTime(time.toISOString())).toBe('09:05:07');
    expect(formatTime(undefined)).toBe('--:--:--');
    expect(formatTime('nonsense')).toBe('--:--:--');
  });
});

describe('formatPinoLine', () => {
  const time = new Date(2024, 0, 2, 13, 14, 15).toISOString();

  it('renders time, level, message and the interesting fields, hiding the usual ones', () => {
    const line = JSON.stringify({
      level: 30,
      time,
      app: 'gateway',
      pid: 42,
      hostname: 'h',
      msg: 'request completed',
      requestId: 'r-1',
      status: 200,
      url: '/health',
    });
    expect(formatPinoLine(line)).toEqual(['13:14:15 INFO  request completed requestId=r-1 status=200 url=/health']);
  });

  it('quotes strings with spaces and shows objects as JSON', () => {
    const line = JSON.stringify({ level: 40, time, msg: 'odd', reason: 'two words', detail: { a: 1 } });
    expect(formatPinoLine(line)).toEqual(['13:14:15 WARN  odd reason="two words" detail={"a":1}']);
  });

  it('shows req and res briefly', () => {
    const line = JSON.stringify({ level: 30, time, msg: 'done', req: { method: 'GET', url: '/x', headers: {} }, res: { statusCode: 204 } });
    expect(formatPinoLine(line)).toEqual(['13:14:15 INFO  done req=GET /x res=204']);
  });

  it('puts an error stack on the following lines', () => {
    const err = { type: 'TypeError', message: 'bad', stack: 'TypeError: bad\n    at main (main.js:1:1)' };
    const line = JSON.stringify({ level: 50, time, msg: 'failed', jobId: 'j1', err });
    expect(formatPinoLine(line)).toEqual(['13:14:15 ERROR failed jobId=j1', '  TypeError: bad', '      at main (main.js:1:1)']);
  });

  it('shows an error without a stack as type: message', () => {
    const line = JSON.stringify({ level: 60, time, msg: 'dead', err: { type: 'Error', message: 'gone' } });
    expect(formatPinoLine(line)).toEqual(['13:14:15 FATAL dead', '  Error: gone']);
  });

  it('colours the level when asked', () => {
    const [head] = formatPinoLine(JSON.stringify({ level: 50, time, msg: 'x' }), true) ?? [];
    expect(head).toBe('13:14:15 \u001b[31mERROR\u001b[0m x');
  });

  it('accepts string levels and unknown numeric ones', () => {
    expect(formatPinoLine(JSON.stringify({ level: 'debug', time, msg: 'a' }))).toEqual(['13:14:15 DEBUG a']);
    expect(formatPinoLine(JSON.stringify({ level: 35, time, msg: 'a' }))).toEqual(['13:14:15 L35   a']);
  });

  it('leaves lines that are not pino records alone', () => {
    expect(formatPinoLine('plain text')).toBeUndefined();
    expect(formatPinoLine('{not json')).toBeUndefined();
    expect(formatPinoLine('{"msg":"no level"}')).toBeUndefined();
    expect(formatPinoLine('[1,2]')).toBeUndefined();
    expect(renderLine('2024-01-01 LOG: ready', true)).toEqual(['2024-01-01 LOG: ready']);
  });
});

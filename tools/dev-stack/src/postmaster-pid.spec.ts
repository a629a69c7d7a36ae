import { isAlive, isPostmasterOf, parentPidOf, parsePostmasterPid } from './postmaster-pid';

describe('postmaster.pid', () => {
  it('reads the pid from the first line', () => {
    expect(parsePostmasterPid('12345\n/data/postgres\n1700000000\n54320\n')).toBe(12345);
    expect(parsePostmasterPid('')).toBeUndefined();
    expect(parsePostmasterPid('abc\n')).toBeUndefined();
    expect(parsePostmasterPid('0\n')).toBeUndefined();
  });

  it('recognises the server of a data directory by its command line', () => {
    const cmdline = ['/x/native/bin/postgres', '-D', '/data/postgres', '-p', '54320', ''].join('\0');
    expect(isPostmasterOf(cmdline, '/data/postgres')).toBe(true);
    expect(isPostmasterOf(cmdline, '/data/postgres/')).toBe(true);
    expect(isPostmasterOf(cmdline, '/other/postgres')).toBe(false);
    expect(isPostmasterOf(['/usr/bin/node', '-D', '/data/postgres'].join('\0'), '/data/postgres')).toBe(false);
    expect(isPostmasterOf(['/x/postgres', '-p', '1'].join('\0'), '/data/postgres')).toBe(false);
  });

  it('reads the parent pid from /proc/<pid>/stat, even when the name holds spaces and parentheses', () => {
    expect(parentPidOf('4242 (post gres) S 17 4242 4242 0 -1')).toBe(17);
    expect(parentPidOf('4242 (a) b) R 1 4242')).toBe(1);
    expect(parentPidOf('garbage')).toBeUndefined();
  });

  it('sees this process alive and a pid that cannot exist dead', () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(2 ** 22 + 1)).toBe(false);
  });
});

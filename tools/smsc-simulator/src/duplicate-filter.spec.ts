import { DuplicateFilter } from './duplicate-filter';

const base = { systemId: 'esme', destination: '+447700900123', userMessageReference: 42, userData: Buffer.from('hello') };

describe('DuplicateFilter', () => {
  it('finds the message_id accepted under the same key', () => {
    const filter = new DuplicateFilter();
    const key = DuplicateFilter.key(base);
    expect(filter.find(key)).toBeUndefined();
    filter.remember(key, 'id-1');
    expect(filter.find(DuplicateFilter.key({ ...base, userData: Buffer.from('hello') }))).toBe('id-1');
  });

  it('tells apart another bind, destination, reference or content', () => {
    const filter = new DuplicateFilter();
    filter.remember(DuplicateFilter.key(base), 'id-1');
    for (const other of [
      { ...base, systemId: 'other' },
      { ...base, destination: '+447700900124' },
      { ...base, userMessageReference: 43 },
      { ...base, userData: Buffer.from('hellO') },
    ]) {
      expect(filter.find(DuplicateFilter.key(other))).toBeUndefined();
    }
  });

  it('forgets after the window', () => {
    let now = 0;
    const filter = new DuplicateFilter(1_000, () => now);
    filter.remember('a', 'id-a');
    now = 500;
    filter.remember('b', 'id-b');
    now = 1_000;
    expect(filter.find('a')).toBeUndefined();
    expect(filter.find('b')).toBe('id-b');
    expect(filter.size).toBe(1);
  });
});

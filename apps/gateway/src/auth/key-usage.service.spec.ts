import type { ApiKeyRepository } from '@mp/accounts';
import { KEY_USE_INTERVAL_MS, KeyUsage } from './key-usage.service';

const A = '0195f7a2-0000-7000-8000-00000000000a';
const B = '0195f7a2-0000-7000-8000-00000000000b';

function recorder(options: { failures?: number } = {}) {
  let now = 1_000_000;
  let failures = options.failures ?? 0;
  const written: string[][] = [];
  const keys = {
    markUsed: async (ids: string[]) => {
      if (failures-- > 0) throw new Error('database down');
      written.push([...ids]);
    },
  } as unknown as ApiKeyRepository;
  return { usage: new KeyUsage(keys, () => now), written, advance: (ms: number) => (now += ms) };
}

describe('KeyUsage', () => {
  afterEach(() => jest.useRealTimers());

  it('writes the keys used within a second in one statement, after a second', async () => {
    jest.useFakeTimers();
    const { usage, written } = recorder();
    usage.used(A);
    usage.used(B);
    usage.used(A);
    expect(written).toEqual([]);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(written).toEqual([[A, B]]);
  });

  it('writes a key at most once a minute', async () => {
    const { usage, written, advance } = recorder();
    usage.used(A);
    await usage.flush();
    advance(KEY_USE_INTERVAL_MS - 1);
    usage.used(A);
    await usage.flush();
    expect(written).toEqual([[A]]);
    advance(1);
    usage.used(A);
    await usage.flush();
    expect(written).toEqual([[A], [A]]);
  });

  it('tries again at the next use when a write failed, and writes what is pending at shutdown', async () => {
    const { usage, written } = recorder({ failures: 1 });
    usage.used(A);
    await usage.flush();
    expect(written).toEqual([]);
    usage.used(A);
    usage.used(B);
    await usage.beforeApplicationShutdown();
    expect(written).toEqual([[A, B]]);
  });
});

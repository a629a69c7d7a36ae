import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('waits for tracked work, failed or not, and forgets it once settled', async () => {
    const inFlight = new InFlight();
    let release!: () => void;
    const done: string[] = [];
    inFlight.track(new Promise<void>((resolve) => (release = resolve)).then(() => done.push('slow')));
    inFlight.track(Promise.reject(new Error('relay failed')));
    const settled = inFlight.settled().then(() => done.push('settled'));
    release();
    await settled;
    expect(done).toEqual(['slow', 'settled']);
    await expect(inFlight.settled()).resolves.toBeUndefined();
  });
});

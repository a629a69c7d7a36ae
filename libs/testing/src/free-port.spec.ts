import { freePort } from './stack';

describe('freePort', () => {
  it('never hands out the same port twice in one process, even when the OS offers it again', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});

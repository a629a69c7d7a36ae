import { createServer, Server } from 'node:net';
import { acceptsConnections, choosePort, isPortFree } from './ports';

describe('choosePort', () => {
  const freeExcept = (taken: number[]) => (port: number) => Promise.resolve(!taken.includes(port));

  it('keeps the port used last time when it is free', async () => {
    expect(await choosePort(54_325, 54_320, freeExcept([]))).toBe(54_325);
  });

  it('takes the first free port from the start otherwise', async () => {
    expect(await choosePort(54_325, 54_320, freeExcept([54_325, 54_320, 54_321]))).toBe(54_322);
    expect(await choosePort(undefined, 54_320, freeExcept([54_320]))).toBe(54_321);
  });

  it('gives up after the given number of attempts', async () => {
    await expect(choosePort(undefined, 100, () => Promise.resolve(false), 3)).rejects.toThrow('No free port between 100 and 102');
  });
});

describe('probing ports', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('tells a taken port from a free one', async () => {
    expect(await isPortFree(port)).toBe(false);
    expect(await acceptsConnections(port)).toBe(true);
  });

  it('finds a port free once its server closed', async () => {
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as { port: number }).port;
    await new Promise((resolve) => other.close(resolve));
    expect(await isPortFree(otherPort)).toBe(true);
    expect(await acceptsConnections(otherPort)).toBe(false);
  });
});

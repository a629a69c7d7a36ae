import { Writable } from 'node:stream';
import pino from 'pino';
import { PinoNestLogger } from './nest-logger';

function capture(level: string): { logger: PinoNestLogger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    logger: new PinoNestLogger(pino({ level }, sink)),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('PinoNestLogger', () => {
  it("writes Nest's calls as pino lines, with the context and the object's fields", () => {
    const { logger, lines } = capture('info');
    logger.log({ msg: 'campaign batch dispatched', messages: 1000 }, 'CampaignBatch');
    logger.warn('plain text');
    logger.error(new Error('boom'), 'Ctx');
    expect(lines()).toEqual([
      expect.objectContaining({ level: 30, context: 'CampaignBatch', msg: 'campaign batch dispatched', messages: 1000 }),
      expect.objectContaining({ level: 40, msg: 'plain text' }),
      expect.objectContaining({ level: 50, context: 'Ctx', msg: 'boom', err: expect.objectContaining({ message: 'boom' }) }),
    ]);
  });

  it('below its level, reads nothing of the call', () => {
    const { logger, lines } = capture('warn');
    const watched = new Proxy(
      { msg: 'message settled' },
      {
        ownKeys: () => {
          throw new Error('the fields were read');
        },
      },
    );
    expect(() => logger.debug(watched, 'ReceiptRecorder')).not.toThrow();
    expect(() => logger.log(watched)).not.toThrow();
    expect(lines()).toEqual([]);
  });
});

import { currentLogContext, enableLogContext, logContextEnabled, runWithLogContext } from './log-context';

describe('log context', () => {
  it('is off until enabled: work just runs, and no context is seen', async () => {
    expect(logContextEnabled()).toBe(false);
    const seen = await runWithLogContext({ requestId: 'r-1' }, async () => {
      await Promise.resolve();
      return currentLogContext();
    });
    expect(seen).toEqual({});
  });

  it('once enabled, follows the work across awaits, and only inside it', async () => {
    enableLogContext();
    expect(logContextEnabled()).toBe(true);
    const seen = await runWithLogContext({ jobId: 'j-7', queue: 'sms.dispatch' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentLogContext();
    });
    expect(seen).toEqual({ jobId: 'j-7', queue: 'sms.dispatch' });
    expect(currentLogContext()).toEqual({});
  });
});

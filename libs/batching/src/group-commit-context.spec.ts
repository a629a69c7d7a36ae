import { currentLogContext, enableLogContext, runWithLogContext } from '@mp/observability';
import { allDone, GroupCommit } from './group-commit';

describe('GroupCommit and the async context', () => {
  it('without the log context, flushes as before', async () => {
    const seen: object[] = [];
    const commit = new GroupCommit<number, void>(
      (items) => {
        seen.push(currentLogContext());
        return Promise.resolve(allDone(items));
      },
      { maxBatch: 10 },
    );
    await runWithLogContext({ requestId: 'r-1' }, () => commit.submit(1));
    expect(seen).toEqual([{}]);
  });

  it("runs each flush in its first item's context: its lines and the jobs it commits belong to that work", async () => {
    enableLogContext();
    const flushes: { items: string[]; context: object }[] = [];
    const commit = new GroupCommit<string, void>(
      async (items) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        flushes.push({ items: [...items], context: currentLogContext() });
        return allDone(items);
      },
      { maxBatch: 2 },
    );
    // The second flush starts when the first ends, from the first's continuation: it must still be in its own first item's context.
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => runWithLogContext({ requestId: `r-${id}` }, () => commit.submit(id))));
    expect(flushes).toEqual([
      { items: ['a', 'b'], context: { requestId: 'r-a' } },
      { items: ['c', 'd'], context: { requestId: 'r-c' } },
    ]);
  });
});

import { Injectable, Module, type BeforeApplicationShutdown, type OnApplicationShutdown } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PendingHooks } from './pending-hooks';

@Injectable()
class HangingFlush implements BeforeApplicationShutdown {
  release: () => void = () => undefined;
  beforeApplicationShutdown(): Promise<void> {
    return new Promise((resolve) => (this.release = resolve));
  }
}

@Injectable()
class PoolClose implements OnApplicationShutdown {
  closed = false;
  onApplicationShutdown(): void {
    this.closed = true;
  }
}

@Module({ providers: [HangingFlush, PoolClose] })
class ShutdownTestModule {}

describe('PendingHooks', () => {
  it('names the shutdown hooks running now, and none once they have finished', async () => {
    const app = await NestFactory.createApplicationContext(ShutdownTestModule, { logger: false });
    const hooks = new PendingHooks(app);
    expect(hooks.names()).toEqual([]);
    const closing = app.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(hooks.names()).toEqual(['HangingFlush.beforeApplicationShutdown']);
    expect(app.get(PoolClose).closed).toBe(false);
    app.get(HangingFlush).release();
    await closing;
    expect(hooks.names()).toEqual([]);
    expect(app.get(PoolClose).closed).toBe(true);
  });
});

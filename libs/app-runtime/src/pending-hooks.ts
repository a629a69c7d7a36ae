import type { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

const SHUTDOWN_HOOKS = ['onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown'] as const;

/**
 * The shutdown hooks of an app's providers that are running now, by `Class.hook`: what a shutdown
 * past its deadline names as what hung. Each hook is wrapped once, where it is, to keep the names.
 */
export class PendingHooks {
  private readonly running = new Map<string, number>();

  constructor(app: INestApplicationContext) {
    for (const module of app.get(ModulesContainer).values()) {
      for (const wrapper of module.providers.values()) {
        const instance = wrapper.instance as Record<string, unknown> | null | undefined;
        if (instance && typeof instance === 'object') this.wrap(instance);
      }
    }
  }

  /** `Class.hook` of each hook started and not yet settled. */
  names(): string[] {
    return [...this.running.keys()];
  }

  private wrap(instance: Record<string, unknown>): void {
    for (const hook of SHUTDOWN_HOOKS) {
      const original = instance[hook];
      if (typeof original !== 'function' || Object.prototype.hasOwnProperty.call(instance, hook)) continue;
      const name = `${instance.constructor.name}.${hook}`;
      instance[hook] = async (...args: unknown[]) => {
        this.running.set(name, (this.running.get(name) ?? 0) + 1);
        try {
          return await (original as (...a: unknown[]) => unknown).apply(instance, args);
        } finally {
          const left = (this.running.get(name) ?? 1) - 1;
          if (left > 0) this.running.set(name, left);
          else this.running.delete(name);
        }
      };
    }
  }
}

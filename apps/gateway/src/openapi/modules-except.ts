import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

/** Every module of the app but these, for SwaggerModule.createDocument's `include`. */
export function modulesExcept(app: INestApplication, excluded: readonly object[]): never[] {
  return [...app.get(ModulesContainer).values()].map((module) => module.metatype).filter((metatype) => !excluded.includes(metatype)) as never[];
}

import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = Symbol('is-public');

/** Marks a route (or controller) as open without credentials; every other route needs them. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

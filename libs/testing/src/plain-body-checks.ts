import { compilePlainBodyCheck, instanceOfPlainBody, referenceValidationPipe } from '@mp/http-kit';
import { seededRandom } from './seeded-random';

export interface BodySpace {
  /** Property names a body is drawn from (the DTO's and unknown ones). */
  keys: readonly string[];
  values: readonly unknown[];
  seed: number;
  count: number;
}

/**
 * For tests: draws `count` bodies from `space` and holds the compiled check to the ValidationPipe
 * the gateway uses: every body it passes, the pipe passes and turns into an equal instance.
 * Throws on the first body where they differ; answers how many each passed.
 */
export async function checkPlainBodiesLikeThePipe(dto: new () => object, space: BodySpace): Promise<{ fastPassed: number; pipePassed: number }> {
  const check = compilePlainBodyCheck(dto);
  if (!check) throw new Error(`${dto.name} has no plain body check`);
  const pipe = referenceValidationPipe();
  const random = seededRandom(space.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  let fastPassed = 0;
  let pipePassed = 0;
  for (let i = 0; i < space.count; i++) {
    const body: Record<string, unknown> = {};
    const size = Math.floor(random() * (space.keys.length + 1));
    for (let k = 0; k < size; k++) body[pick(space.keys)] = pick(space.values);
    const fast = check(body);
    let made: unknown;
    try {
      made = await pipe.transform(structuredClone(body), { type: 'body', metatype: dto, data: '' });
      pipePassed++;
    } catch {
      made = undefined;
    }
    if (!fast) continue;
    fastPassed++;
    const expected = instanceOfPlainBody(dto, body);
    if (
      made === undefined ||
      !(made instanceof dto) ||
      JSON.stringify(made) !== JSON.stringify(expected) ||
      Object.keys(made).join() !== Object.keys(expected).join()
    ) {
      throw new Error(`the check passed ${JSON.stringify(body)}, which the pipe ${made === undefined ? 'refused' : `made into ${JSON.stringify(made)}`}`);
    }
  }
  return { fastPassed, pipePassed };
}

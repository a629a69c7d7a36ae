import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';

/**
 * Reads "true"/"false" (and 1/0) from the raw variable. Implicit conversion alone would turn the
 * string "false" into true; anything else is left as text for @IsBoolean to refuse by name.
 */
export function EnvBoolean(): PropertyDecorator {
  return Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) => parseBooleanText(obj[key]));
}

export function parseBooleanText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim().toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return value;
}

/** A true/false variable: read as EnvBoolean reads it, refused by name when it is anything else. */
export function EnvFlag(): PropertyDecorator {
  return (target, key) => {
    EnvBoolean()(target, key);
    IsBoolean({ message: 'must be true or false' })(target, key);
  };
}

import { HttpStatus, ValidationPipe, type ArgumentMetadata, type ValidationError, type ValidationPipeOptions } from '@nestjs/common';
import { ApiError } from './api-error';
import { compilePlainBodyCheck, instanceOfPlainBody, type PlainBodyCheck } from './plain-body-check';

export interface FieldError {
  field: string;
  error: string;
}

/** Flattens nested class-validator errors into `{ field, error }` with dotted field paths. */
export function fieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([rule, text]) => ({
      field,
      error: rule === 'whitelistValidation' ? `${field} is not a known field` : text,
    }));
    return [...own, ...fieldErrors(error.children ?? [], field)];
  });
}

/**
 * The global pipe: unknown fields refused, values converted to the DTO's types, and failures as
 * 400 `{ error: "<first problem, naming the field>", details: [{ field, error }] }`.
 */
export function apiValidationPipe(): ValidationPipe {
  return new ApiValidationPipe(apiValidationOptions());
}

/** The global pipe without its fast path: what a body that skips it would have met (for tests). */
export function referenceValidationPipe(): ValidationPipe {
  return new ValidationPipe(apiValidationOptions());
}

function apiValidationOptions(): ValidationPipeOptions {
  return {
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const details = fieldErrors(errors);
      return new ApiError(HttpStatus.BAD_REQUEST, details[0]?.error ?? 'Invalid request', { details });
    },
  };
}

/**
 * The ValidationPipe, but a field given as `null` counts as not given (class-validator's
 * `@IsOptional()` lets null through, and a DTO's optional field is typed `T | undefined`), and a
 * body that surely passes a simple DTO skips the pipe (see compilePlainBodyCheck).
 */
class ApiValidationPipe extends ValidationPipe {
  private readonly plainChecks = new Map<unknown, PlainBodyCheck | null>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dto = metadata.metatype as (new () => object) | undefined;
    if (metadata.type !== 'body' || !dto) return super.transform(value, metadata);
    const body = withoutNullFields(value);
    if (this.plainCheckOf(dto)?.(body)) return instanceOfPlainBody(dto, body as object);
    return super.transform(body, metadata);
  }

  private plainCheckOf(dto: new () => object): PlainBodyCheck | null {
    let check = this.plainChecks.get(dto);
    // A type without class-validator rules (String, Object, …) gets none, and the pipe as before.
    if (check === undefined) this.plainChecks.set(dto, (check = compilePlainBodyCheck(dto)));
    return check;
  }
}

/** A JSON object's own fields but those whose value is null; anything else as it is. */
export function withoutNullFields(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value);
  if (!entries.some(([, field]) => field === null)) return value;
  return Object.fromEntries(entries.filter(([, field]) => field !== null));
}

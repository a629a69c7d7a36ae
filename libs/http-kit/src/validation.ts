import { HttpStatus, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError } from './api-error';

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
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const details = fieldErrors(errors);
      return new ApiError(HttpStatus.BAD_REQUEST, details[0]?.error ?? 'Invalid request', { details });
    },
  });
}

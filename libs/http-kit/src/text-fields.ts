import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export interface TextFieldOptions {
  /** The most characters the field takes (none: any length). */
  maxLength?: number;
  /** Said after the field's name when the value is longer: `<field> is too long` by default. */
  tooLong?: string;
  /** Said after the field's name when the value is not a string: `<field> must be a string` by default. */
  notText?: string;
}

/**
 * An optional text field of a request body, with class-validator's messages naming the field. The
 * rules run as `@IsOptional() @MaxLength() @IsString()` stacked would: "not a string" is checked
 * first, so a number answers `<field> must be a string`, never "too long". Only rules the
 * validation fast path knows (see compilePlainBodyCheck).
 */
export function TextField(options: TextFieldOptions = {}): PropertyDecorator {
  return (target, property) => {
    const field = String(property);
    IsString({ message: `${field} ${options.notText ?? 'must be a string'}` })(target, property);
    if (options.maxLength !== undefined) MaxLength(options.maxLength, { message: `${field} ${options.tooLong ?? 'is too long'}` })(target, property);
    IsOptional()(target, property);
  };
}

/**
 * Another name the interface accepts for `canonical` (`phone` for `to`, …): documented as
 * "Alias of `canonical`", checked as a TextField. Which of them wins is the resolver's
 * choice (see firstGiven).
 */
export function AliasOf(canonical: string, options: TextFieldOptions = {}): PropertyDecorator {
  return (target, property) => {
    ApiPropertyOptional({ description: `Alias of \`${canonical}\`` })(target, property);
    TextField(options)(target, property);
  };
}

/** The first value that is not blank (a field, then its aliases), as sent; undefined when none is. */
export function firstGiven(...values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined && value.trim() !== '');
}

import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';

// Property decorators for the answers' schemas: exact JSON types (an integer is `integer`, money a
// `number`), `required` unless said otherwise, `null` only where the code answers it. A schema a
// response or webhook uses is closed (no other property) by buildOpenApiDocument.

type Options = Omit<ApiPropertyOptions, 'type' | 'enum' | 'nullable' | 'required'>;

export const Text = (options: Options = {}) => ApiProperty({ type: String, ...options });
export const OptionalText = (options: Options = {}) => ApiPropertyOptional({ type: String, ...options });
export const NullableText = (options: Options = {}) => ApiProperty({ type: String, nullable: true, ...options });

export const Integer = (options: Options = {}) => ApiProperty({ type: 'integer', ...options });
export const OptionalInteger = (options: Options = {}) => ApiPropertyOptional({ type: 'integer', ...options });

/** An amount of money: a JSON number with at most 4 decimals, exact (stored as integer minor units). */
export const Money = (description: string, options: Options = {}) =>
  ApiProperty({ type: 'number', example: 0.01, description: `${description} (exact, at most 4 decimals)`, ...options });

export const Timestamp = (description?: string) => ApiProperty({ type: String, format: 'date-time', ...(description ? { description } : {}) });
export const NullableTimestamp = (description?: string) =>
  ApiProperty({ type: String, format: 'date-time', nullable: true, ...(description ? { description } : {}) });

export const Uuid = (description?: string) => ApiProperty({ type: String, format: 'uuid', ...(description ? { description } : {}) });
export const NullableUuid = (description?: string) => ApiProperty({ type: String, format: 'uuid', nullable: true, ...(description ? { description } : {}) });

export const OneOf = (values: readonly (string | number)[], options: Options = {}) =>
  ApiProperty({ type: typeof values[0] === 'number' ? 'number' : String, enum: [...values], ...options });
export const NullableOneOf = (values: readonly string[], options: Options = {}) => ApiProperty({ type: String, enum: [...values], nullable: true, ...options });

/** `status: "success"`, the mark of every success body. */
export const SuccessStatus = () => ApiProperty({ type: String, enum: ['success'], example: 'success' });

/** A property whose value is an object of a DTO class, or (`[Dto]`) a list of them. */
export const Nested = (type: Type<unknown> | [Type<unknown>], options: Options = {}) => ApiProperty({ type, ...options } as ApiPropertyOptions);
export const OptionalNested = (type: Type<unknown> | [Type<unknown>], options: Options = {}) => ApiPropertyOptional({ type, ...options } as ApiPropertyOptions);

/** The envelope of the `{ status, message, data }` answers; subclasses add `data`. */
export class SuccessEnvelopeDto {
  @SuccessStatus() status: 'success';
  @Text({ description: 'What was done, for people' }) message: string;
}

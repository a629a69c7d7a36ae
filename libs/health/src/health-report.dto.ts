import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiServiceUnavailableResponse, type ApiPropertyOptions } from '@nestjs/swagger';

// What the health routes answer (@nestjs/terminus's report), for the API reference.

/** Checks by name (`lifecycle`: not shutting down; `postgres`, `redis`, `queues`), each `{ status: "up" | "down", message? }`. */
const indicators = (description: string): ApiPropertyOptions => ({
  type: 'object',
  description,
  additionalProperties: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['up', 'down'] }, message: { type: 'string' } },
    required: ['status'],
    additionalProperties: true,
  },
});

export class LivenessDto {
  @ApiProperty({ type: String, enum: ['ok'] }) status: 'ok';
}

export class HealthReportDto {
  @ApiProperty({ type: String, enum: ['ok'] }) status: 'ok';
  @ApiProperty(indicators('The dependencies that answer')) info: Record<string, unknown>;
  @ApiProperty(indicators('The dependencies that do not (empty)')) error: Record<string, unknown>;
  @ApiProperty(indicators('Every dependency')) details: Record<string, unknown>;
}

export class HealthFailureDto {
  @ApiProperty({ type: String, example: 'Not ready' }) error: string;
  @ApiProperty({ type: String, enum: ['error', 'shutting_down'] }) status: string;
  @ApiProperty(indicators('The dependencies that answer')) info: Record<string, unknown>;
  @ApiProperty(indicators('Every dependency; those down say why')) details: Record<string, unknown>;
}

/** 200 with the report, or 503 naming the dependency that is down. */
export function ApiReadiness(): MethodDecorator {
  return applyDecorators(
    ApiOkResponse({ type: HealthReportDto, description: 'Ready' }),
    ApiServiceUnavailableResponse({ type: HealthFailureDto, description: 'A dependency is down (or the app is shutting down); `details` says which' }),
  );
}

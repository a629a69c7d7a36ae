import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse } from '@nestjs/swagger';

export class ErrorBodyDto {
  @ApiProperty({ example: 'Unauthorized', description: 'What went wrong; present on every failure' })
  error: string;
}

export class FieldErrorDto {
  @ApiProperty({ example: 'api_key' })
  field: string;

  @ApiProperty({ example: 'api_key is required' })
  error: string;
}

export class ValidationErrorBodyDto extends ErrorBodyDto {
  @ApiProperty({ type: [FieldErrorDto], required: false })
  details?: FieldErrorDto[];
}

/** The failures every authenticated route can answer. */
export function ApiStandardErrors(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiResponse({
      status: 401,
      type: ErrorBodyDto,
      description: 'Missing, wrong, revoked or forged credentials. `WWW-Authenticate` names the schemes.',
    }),
    ApiResponse({ status: 503, type: ErrorBodyDto, description: 'Database or queue unreachable; nothing was charged.' }),
  );
}

export function ApiValidationErrors(): MethodDecorator {
  return applyDecorators(
    ApiResponse({ status: 400, type: ValidationErrorBodyDto, description: 'Malformed JSON, or a missing or invalid field (named in `error`).' }),
    ApiResponse({ status: 413, type: ErrorBodyDto, description: 'Body over the size limit (1 MiB).' }),
  );
}

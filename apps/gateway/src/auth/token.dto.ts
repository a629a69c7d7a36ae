import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Integer, OneOf, SuccessStatus, Text } from '../openapi/schema-properties';

// class-validator runs a property's decorators bottom-up: "is required" is checked first.

export class TokenRequestDto {
  @ApiProperty({ example: 'mpk_3kq0xZ1c2v9oA7Yt0b5R1Q', description: 'The API key' })
  @MaxLength(200, { message: 'api_key is too long' })
  @IsString({ message: 'api_key must be a string' })
  @IsNotEmpty({ message: 'api_key is required' })
  api_key: string;

  @ApiProperty({ example: 'S3cr3t…', description: 'The API secret shown once when the key was created' })
  @MaxLength(200, { message: 'api_secret is too long' })
  @IsString({ message: 'api_secret must be a string' })
  @IsNotEmpty({ message: 'api_secret is required' })
  api_secret: string;
}

export class TokenResponseDto {
  @SuccessStatus()
  status: 'success';

  @Text({ description: 'HS256 JWT; send as `Authorization: Bearer <token>`' })
  access_token: string;

  @OneOf(['Bearer'])
  token_type: 'Bearer';

  @Integer({ example: 3600, minimum: 1, description: 'Seconds until the token expires' })
  expires_in: number;
}

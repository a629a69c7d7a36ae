import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Integer, Nested, OneOf, Text, Timestamp } from '../openapi/schema-properties';

// The applications and templates of the dashboard API (docs/dashboard-api.json). class-validator
// runs a property's decorators bottom-up: "is required" is checked first. The ranges of the
// settings are the accounts domain's (updateApplicationSettings), which answers them as 400s.

const COUNTRY = /^[A-Za-z]{2}$/;
const LANG_EXAMPLE = 'pt-BR';

class ApplicationSettingsRequestDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 60, example: 10, description: 'How long an OTP stays valid unless a send says otherwise' })
  @IsInt({ message: 'otp_validity_minutes must be an integer' })
  @IsOptional()
  otp_validity_minutes?: number;

  @ApiPropertyOptional({
    type: [String],
    example: ['GB', 'FR'],
    description: 'ISO 3166 alpha-2 codes OTPs may be sent to; an empty list lets every country through',
  })
  @Matches(COUNTRY, { each: true, message: 'allowed_countries must hold ISO 3166 codes like GB' })
  @IsString({ each: true, message: 'allowed_countries must hold ISO 3166 codes like GB' })
  @ArrayMaxSize(250, { message: 'allowed_countries may hold at most 250 codes' })
  @IsArray({ message: 'allowed_countries must be a list of ISO 3166 codes' })
  @IsOptional()
  allowed_countries?: string[];

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1_000_000, example: 100, description: 'OTP sends per hour to one number prefix' })
  @IsInt({ message: 'otp_prefix_limit_per_hour must be an integer' })
  @IsOptional()
  otp_prefix_limit_per_hour?: number;
}

export class CreateApplicationRequestDto extends ApplicationSettingsRequestDto {
  @ApiProperty({ example: 'Shop', description: "Unique among the company's applications" })
  @MaxLength(200, { message: 'name is too long' })
  @IsString({ message: 'name must be a string' })
  @IsNotEmpty({ message: 'name is required' })
  name: string;
}

export class UpdateApplicationRequestDto extends ApplicationSettingsRequestDto {
  @ApiPropertyOptional({ example: 'Shop', description: "Unique among the company's applications" })
  @MaxLength(200, { message: 'name is too long' })
  @IsString({ message: 'name must be a string' })
  @IsOptional()
  name?: string;
}

export class ApplicationDto {
  @Text({ example: 'app_3f9c0d1e2a4b5c6d7e8f', description: 'Passed as `appid` to the public API' }) appid: string;
  @Text({ example: 'Shop' }) name: string;
  @Integer({ minimum: 1, maximum: 60 }) otp_validity_minutes: number;
  @ApiProperty({ type: [String], nullable: true, example: ['GB', 'FR'], description: 'Null: every country' }) allowed_countries: string[] | null;
  @Integer({ minimum: 1 }) otp_prefix_limit_per_hour: number;
  @Text({ example: 'UTC', description: 'The time zone of the times rendered into its templates' }) timezone: string;
  @Timestamp() created_at: string;
}

export class ApplicationListDto {
  @Nested([ApplicationDto], { description: 'Oldest first' }) items: ApplicationDto[];
}

export class TemplateTextDto {
  @Text({ example: 'en' }) lang: string;
  @Text({ example: 'Your {{app_name}} code is {{otp}}' }) text: string;
  @ApiProperty({ type: Boolean, description: 'The text the template was created with: it goes only with the template' }) original: boolean;
  @Timestamp() created_at: string;
}

export class TemplateDto {
  @Integer({ minimum: 1, description: 'Passed as `template` to POST /otp/send' }) template_id: number;
  @Nested([TemplateTextDto], { description: 'Its own text first, then by language' }) texts: TemplateTextDto[];
}

export class TemplateListDto {
  @Nested([TemplateDto], { description: 'By id' }) items: TemplateDto[];
  @ApiProperty({ type: [String], example: ['en', 'pt-BR'], description: 'Every language a template of the application has, sorted' }) languages: string[];
}

export class CreateTemplateRequestDto {
  @ApiPropertyOptional({ example: 'en', default: 'en', description: 'A language code such as en or pt-BR' })
  @MaxLength(20, { message: 'lang must be a language code such as en or pt-BR' })
  @IsString({ message: 'lang must be a string' })
  @IsOptional()
  lang?: string;

  @ApiProperty({ example: 'Your {{app_name}} code is {{otp}}', description: '1 to 1600 characters; `{{otp}}` or `{{code}}` for it to serve OTPs' })
  @IsString({ message: 'text must be a string' })
  @IsNotEmpty({ message: 'text is required' })
  text: string;
}

export class TemplateTextRequestDto {
  @ApiProperty({ example: 'O seu código {{app_name}} é {{otp}}', description: '1 to 1600 characters' })
  @IsString({ message: 'text must be a string' })
  @IsNotEmpty({ message: 'text is required' })
  text: string;
}

export class CreatedTemplateDto {
  @Integer({ minimum: 1 }) template_id: number;
  @Text({ example: 'en' }) lang: string;
}

export class TemplateTextSetDto extends CreatedTemplateDto {
  @ApiProperty({ type: Boolean, description: 'True when the language had no text before' }) created: boolean;
}

export class RemovedTemplateTextDto extends CreatedTemplateDto {
  @ApiProperty({ type: Boolean, enum: [true] }) removed: true;
}

export class RemovedTemplateDto {
  @Integer({ minimum: 1 }) template_id: number;
  @ApiProperty({ type: [String], example: ['en', 'pt-BR'], description: 'The languages it had' }) languages: string[];
  @ApiProperty({ type: Boolean, enum: [true] }) removed: true;
}

export class TemplatePreviewRequestDto {
  @ApiProperty({ example: 'Your {{app_name}} code is {{otp}}', description: 'The template text, as it would be saved' })
  @IsString({ message: 'text must be a string' })
  @IsNotEmpty({ message: 'text is required' })
  text: string;

  @ApiPropertyOptional({ example: LANG_EXAMPLE, default: 'en', description: 'What `{{lang}}` renders as' })
  @MaxLength(20, { message: 'lang must be a language code such as en or pt-BR' })
  @IsString({ message: 'lang must be a string' })
  @IsOptional()
  lang?: string;

  @ApiProperty({ example: '+447400123456', description: 'A sample recipient: what `{{phone}}` renders as, and whose price is used' })
  @MaxLength(40, { message: 'to is too long' })
  @IsString({ message: 'to must be a string' })
  @IsNotEmpty({ message: 'to is required' })
  to: string;

  @ApiPropertyOptional({ enum: ['auto', 'standard', 'premium'], default: 'auto', description: 'The route priced (OTPs go on `auto`)' })
  @IsIn(['auto', 'standard', 'premium'], { message: 'route must be one of auto, standard, premium' })
  @IsOptional()
  route?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean'] },
    example: { name: 'Ada' },
    description:
      'Sample values of custom variables, as `custom_vars` of POST /otp/send takes them (at most 20; texts of at most 200 characters, numbers, booleans)',
  })
  @IsObject({ message: 'custom_vars must be an object' })
  @IsOptional()
  custom_vars?: Record<string, unknown>;
}

export class Ucs2CharacterDto {
  @Text({ example: 'ż', description: 'One character (code point)' }) character: string;
  @Integer({ minimum: 1, description: '1-based, in characters (code points) of the rendered text' }) position: number;
}

export class TemplatePreviewDto {
  @Text({ example: 'Your Shop code is 123456', description: 'The text rendered with a sample code (123456), the application’s name, expiry and time zone' })
  rendered_text: string;
  @Integer({ minimum: 0, description: 'Characters (code points) of the rendered text' }) characters: number;
  @OneOf(['GSM-7', 'UCS-2'], { description: 'GSM-7: 160 characters in one part, else 153 per part; UCS-2: 70, else 67' }) encoding: string;
  @Integer({ minimum: 1 }) parts: number;
  @ApiProperty({ type: Ucs2CharacterDto, nullable: true, description: 'The first character that forces UCS-2; null for GSM-7' })
  ucs2_character: Ucs2CharacterDto | null;
  @ApiProperty({ type: Boolean, description: 'Whether it shows the code (`{{otp}}` or `{{code}}`): an OTP send refuses a template that does not' })
  shows_code: boolean;
  @Text({ example: '+447400123456', description: 'The sample recipient in E.164' }) to: string;
  @OneOf(['auto', 'standard', 'premium']) route: string;
  @Text({ example: '0.0100', description: 'Price of one part to the sample recipient on the route: exact, 4 decimals' }) price_per_part: string;
  @Text({ example: '0.0200', description: 'parts × price_per_part: exact, 4 decimals (what POST /sms/estimate answers as `total_cost`)' }) cost: string;
  @Text({ example: 'EUR', description: 'The company’s currency' }) currency: string;
}

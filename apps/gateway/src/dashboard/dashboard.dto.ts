import { ApiProperty } from '@nestjs/swagger';
import { COMPANY_ROLES, ROLES } from '@mp/accounts-domain';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Integer, Nested, NullableText, NullableTimestamp, OneOf, Text, Timestamp, Uuid } from '../openapi/schema-properties';

// The bodies of the dashboard API (docs/dashboard-api.json). class-validator runs a property's
// decorators bottom-up: "is required" is checked first.

export class SignInRequestDto {
  @ApiProperty({ example: 'ada@example.com' })
  @MaxLength(254, { message: 'email is too long' })
  @IsString({ message: 'email must be a string' })
  @IsNotEmpty({ message: 'email is required' })
  email: string;

  @ApiProperty({ example: 'correct horse battery' })
  @MaxLength(1024, { message: 'password is too long' })
  @IsString({ message: 'password must be a string' })
  @IsNotEmpty({ message: 'password is required' })
  password: string;
}

export class InviteRequestDto {
  @ApiProperty({ example: 'grace@example.com', description: 'Who is invited: the account the link makes has this email' })
  @MaxLength(254, { message: 'email is too long' })
  @IsString({ message: 'email must be a string' })
  @IsNotEmpty({ message: 'email is required' })
  email: string;

  @ApiProperty({ enum: [...COMPANY_ROLES], example: 'developer' })
  @IsIn([...COMPANY_ROLES], { message: `role must be one of ${COMPANY_ROLES.join(', ')}` })
  @IsNotEmpty({ message: 'role is required' })
  role: string;
}

export class AcceptInvitationRequestDto {
  @ApiProperty({ example: 'correct horse battery', description: 'The new account’s password: 10 to 256 characters' })
  @MaxLength(1024, { message: 'password is too long' })
  @IsString({ message: 'password must be a string' })
  @IsNotEmpty({ message: 'password is required' })
  password: string;
}

export class CompanyRefDto {
  @Uuid() id: string;
  @Text({ example: 'Acme' }) name: string;
  @ApiProperty({ type: Boolean, description: 'An operator suspended the company: its users may read, but change nothing' }) suspended: boolean;
}

export class UserDto {
  @Uuid() id: string;
  @Text({ example: 'ada@example.com' }) email: string;
  @OneOf([...ROLES]) role: string;
  @ApiProperty({ type: CompanyRefDto, nullable: true, description: 'The company the user belongs to; null for an operator' })
  company: CompanyRefDto | null;
}

export class SessionDto {
  @Nested(UserDto) user: UserDto;
  @Text({ description: 'Send it back as `X-CSRF-Token` on every POST, PUT, PATCH and DELETE of this session' }) csrf_token: string;
}

export class SessionStateDto {
  @ApiProperty({ type: UserDto, nullable: true, description: 'The signed-in user; null without a live session' })
  user: UserDto | null;
  @NullableText({ description: 'The session’s CSRF token; null without a live session' }) csrf_token: string | null;
}

export class SignedOutDto {
  @ApiProperty({ type: Boolean, enum: [true] }) signed_out: true;
}

export class SignedOutEverywhereDto extends SignedOutDto {
  @Integer({ minimum: 0, description: 'Sessions of this user that ended, this one included' }) sessions: number;
}

export class ApiKeyDto {
  @Uuid() id: string;
  @Text({ example: 'mpk_3kq0xZ1c2v9oA7Yt0b5R1Q', description: 'The public half, sent as `X-API-Key`' }) api_key: string;
  @Timestamp() created_at: string;
  @NullableTimestamp('When the public API last accepted the key, to the minute; null if never') last_used_at: string | null;
  @NullableTimestamp('Null while the key works') revoked_at: string | null;
}

export class ApiKeyListDto {
  @Nested([ApiKeyDto], { description: 'Newest first, revoked keys included' }) items: ApiKeyDto[];
}

export class CreatedApiKeyDto {
  @Uuid() id: string;
  @Text({ example: 'mpk_3kq0xZ1c2v9oA7Yt0b5R1Q' }) api_key: string;
  @Text({ description: 'Shown only in this answer: it is stored as a keyed hash' }) api_secret: string;
  @Timestamp() created_at: string;
}

export class RevokedApiKeyDto {
  @Uuid() id: string;
  @Timestamp('When it was revoked (the first time, if it was already)') revoked_at: string;
}

export class MemberDto {
  @Uuid() id: string;
  @Text({ example: 'grace@example.com' }) email: string;
  @OneOf([...COMPANY_ROLES]) role: string;
  @Timestamp() created_at: string;
}

export class InvitationDto {
  @Uuid() id: string;
  @Text({ example: 'grace@example.com' }) email: string;
  @OneOf([...COMPANY_ROLES]) role: string;
  @Timestamp() expires_at: string;
}

export class MembersDto {
  @Nested([MemberDto], { description: 'Oldest first' }) items: MemberDto[];
  @Nested([InvitationDto], { description: 'Invitations not accepted and not expired, newest first' }) invitations: InvitationDto[];
}

export class CreatedInvitationDto extends InvitationDto {
  @Text({ example: '/dashboard/invite/q0xZ1c2v9oA7Yt0b5R1Qq0xZ1c2v9oA7Yt0b5R1Qabc', description: 'The one-time link, shown only in this answer' })
  link: string;
}

export class CancelledInvitationDto {
  @Uuid() id: string;
  @ApiProperty({ type: Boolean, enum: [true] }) cancelled: true;
}

export class RemovedMemberDto {
  @Uuid() id: string;
  @ApiProperty({ type: Boolean, enum: [true] }) removed: true;
}

export class AuditActorDto {
  @Uuid() id: string;
  @Text({ example: 'ada@example.com' }) email: string;
}

export class AuditEntryDto {
  @Text({ example: '42', description: 'Increasing with time' }) id: string;
  @Timestamp() at: string;
  @ApiProperty({ type: AuditActorDto, nullable: true, description: "Who made the change; null for the operators' command-line tool" })
  actor: AuditActorDto | null;
  @Text({
    example: 'key.created',
    description:
      "`key.created`, `key.revoked`, `member.invited`, `invitation.cancelled`, `member.joined`, `member.removed`, `member.created`, `balance.topped_up`, `settings.changed`, `application.created`, `template.created`, `template.text_set`, `template.text_removed`, `template.deleted`, `webhook_secret.revealed`, `webhook_secret.rotated`, `company.created`, `company.suspended`, `company.unsuspended`, `sender.assigned`, `sender.unassigned`; the platform's own (no company): `operator.created`, `price.set`, `prices.imported`",
  })
  action: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { key_id: '0195f7a2-…', api_key: 'mpk_…' },
    description: 'What changed; `price.set`: prefix, route, price and previous_price (exact decimal texts, null for a new one); `prices.imported`: count',
  })
  details: Record<string, unknown>;
}

export class AuditPageDto {
  @Nested([AuditEntryDto], { description: 'Newest first, 50 a page' }) items: AuditEntryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next (older) page; null on the last' }) next_cursor: string | null;
}

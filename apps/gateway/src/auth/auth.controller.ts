import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CredentialsInBody, Public } from '@mp/http-kit';
import { ApiBadRequest, ApiForbidden, ApiTooManyRequests, ApiUnavailable, ErrorBodyDto } from '../openapi/error-responses';
import { UNAUTHORIZED_HEADER_DOC } from '../openapi/http-layer-answers';
import { unauthorized } from './api-auth.guard';
import { Authenticator } from './authenticator.service';
import { clientAddress } from './client-address';
import { TokenRequestDto, TokenResponseDto } from './token.dto';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly authenticator: Authenticator) {}

  @Post('token')
  @Public()
  @CredentialsInBody()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange an API key pair for a bearer token',
    description: 'The token is an HS256 JWT valid for one hour; revoking the key ends it at once (within the credential cache time).',
  })
  @ApiOkResponse({ type: TokenResponseDto, description: 'The token' })
  @ApiBadRequest('A missing or invalid field, named in `error`')
  @ApiResponse({
    status: 401,
    type: ErrorBodyDto,
    description: 'Unknown key, wrong secret, or revoked key: `{ "error": "Unauthorized" }`',
    headers: UNAUTHORIZED_HEADER_DOC,
  })
  @ApiForbidden('The key is right but an operator suspended its company: `{ "error": "Company suspended: contact the platform operator" }`')
  @ApiTooManyRequests('Too many failed attempts for this key or from this address: `{ error, retry_after }` and `Retry-After`')
  @ApiUnavailable('The database is unreachable')
  async token(@Body() body: TokenRequestDto, @Req() request: { ip?: string; headers: { 'x-forwarded-for'?: string | string[] } }): Promise<TokenResponseDto> {
    const address = clientAddress(request.ip, request.headers['x-forwarded-for']);
    const principal = await this.authenticator.checkKeyPair(body.api_key, body.api_secret, address);
    if (!principal) throw unauthorized();
    return { status: 'success', token_type: 'Bearer', ...this.authenticator.issueToken(principal) };
  }
}

import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC, unauthorized } from '@mp/http-kit';
import type { CredentialHeaders } from '@mp/auth';
import { Authenticator } from './authenticator.service';
import { clientAddress } from './client-address';
import type { AuthenticatedRequest } from './principal';

export { unauthorized } from '@mp/http-kit';

/** Global guard: every route needs credentials unless marked @Public(). */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const open = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (open) return true;
    const request = context
      .switchToHttp()
      .getRequest<AuthenticatedRequest & { headers: CredentialHeaders & { 'x-forwarded-for'?: string | string[] }; ip?: string }>();
    const principal = await this.authenticator.authenticate(request.headers, clientAddress(request.ip, request.headers['x-forwarded-for']));
    if (!principal) throw unauthorized();
    request.principal = principal;
    return true;
  }
}

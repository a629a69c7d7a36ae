import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** Who is calling: the company every query of the request is scoped to, and the key used. */
export interface Principal {
  companyId: string;
  apiKeyId: string;
}

export interface AuthenticatedRequest {
  principal?: Principal;
}

/** Injects the authenticated caller into a controller method. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});

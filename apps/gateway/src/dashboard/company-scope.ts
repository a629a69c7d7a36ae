import { HttpStatus, Injectable } from '@nestjs/common';
import { CompanyRepository, type LiveSession } from '@mp/accounts';
import { companyScope } from '@mp/accounts-domain';
import { ApiError } from '@mp/http-kit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const companyNotFound = () => new ApiError(HttpStatus.NOT_FOUND, 'Company not found');

/** The company a dashboard request acts on: the user's own; an operator's `company_id`. */
@Injectable()
export class CompanyScopes {
  constructor(private readonly companies: CompanyRepository) {}

  async companyOf(session: LiveSession, requested: string | undefined): Promise<string> {
    const scope = companyScope(session.user, requested);
    if (scope.kind === 'missing') throw new ApiError(HttpStatus.BAD_REQUEST, 'company_id is required for an operator');
    if (scope.kind === 'other-company') throw companyNotFound();
    if (scope.chosen && (!UUID.test(scope.companyId) || !(await this.companies.findById(scope.companyId)))) throw companyNotFound();
    return scope.companyId;
  }
}

import { HttpStatus } from '@nestjs/common';
import { EmailTakenError, InvalidArgumentError, InvitationUnusableError, LastOwnerError, NotFoundError, type LiveSession, type UserRecord } from '@mp/accounts';
import { SettingError } from '@mp/accounts-domain';
import { ApiError, readQuery, valueOrBadRequest } from '@mp/http-kit';
import type { SessionDto, UserDto } from './dashboard.dto';

export function userAnswer(user: UserRecord): UserDto {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    company: user.companyId === null ? null : { id: user.companyId, name: user.companyName ?? '', suspended: user.companySuspended },
  };
}

export function sessionAnswer(session: Pick<LiveSession, 'user' | 'csrfToken'>): SessionDto {
  return { user: userAnswer(session.user), csrf_token: session.csrfToken };
}

/** `company_id` (an operator's choice of company), the one query parameter most routes take. */
export function companyIdQuery(query: unknown, others: readonly string[] = []): { companyId: string | undefined; reader: Record<string, string | null> } {
  return valueOrBadRequest(
    readQuery(query, ['company_id', ...others], (q) => ({
      companyId: q.text('company_id') ?? undefined,
      reader: Object.fromEntries(others.map((name) => [name, q.text(name)])),
    })),
  );
}

/** What the accounts lib refuses, as the API answers it; anything else goes on as it is. */
export function answerRefusal(error: unknown): never {
  if (error instanceof NotFoundError) throw new ApiError(HttpStatus.NOT_FOUND, error.message);
  if (error instanceof EmailTakenError) throw new ApiError(HttpStatus.CONFLICT, 'A user with this email already exists');
  if (error instanceof LastOwnerError) throw new ApiError(HttpStatus.CONFLICT, error.message);
  if (error instanceof InvitationUnusableError) throw new ApiError(error.reason === 'unknown' ? HttpStatus.NOT_FOUND : HttpStatus.GONE, error.message);
  if (error instanceof SettingError || error instanceof InvalidArgumentError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
  throw error;
}

/** Runs a lib call, answering its refusals (answerRefusal). */
export async function refusalsAnswered<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    answerRefusal(error);
  }
}

// The dashboard API's answers (docs/openapi.json, "Dashboard" routes under /dashboard/api).

export type Role = 'owner' | 'developer' | 'operator';

export interface User {
  id: string;
  email: string;
  role: Role;
  /** Null for operators, who see every company. */
  /** `suspended`: an operator suspended the company; its users may read but change nothing. */
  company: { id: string; name: string; suspended?: boolean } | null;
}

export interface SessionAnswer {
  user: User;
  csrf_token: string;
}

export interface ApiKey {
  id: string;
  api_key: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface KeyList {
  items: ApiKey[];
}

/** The one answer that carries a key's secret. */
export interface CreatedKey {
  id: string;
  api_key: string;
  api_secret: string;
  created_at: string;
}

export interface RevokedKey {
  id: string;
  revoked_at: string;
}

export interface Member {
  id: string;
  email: string;
  role: Role;
  created_at: string;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  expires_at: string;
}

export interface MemberList {
  items: Member[];
  invitations: PendingInvitation[];
}

export interface CreatedInvitation extends PendingInvitation {
  /** `/dashboard/invite/{token}`, shown once. */
  link: string;
}

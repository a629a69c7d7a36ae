import { Client } from 'pg';

export interface StatementSpy {
  /** The text of every statement sent so far, in order, trimmed. */
  texts: () => string[];
  clear: () => void;
  restore: () => void;
}

/**
 * Records every statement this process sends to PostgreSQL, plain or prepared (by name) alike,
 * transaction control included: what a test counts to hold a transaction to its round trips.
 */
export function spyOnStatements(): StatementSpy {
  const spy = jest.spyOn(Client.prototype as unknown as { query: (...args: unknown[]) => unknown }, 'query');
  const textOf = ([query]: unknown[]): string => (typeof query === 'string' ? query : String((query as { text?: unknown }).text)).trim();
  return { texts: () => spy.mock.calls.map(textOf), clear: () => spy.mockClear(), restore: () => spy.mockRestore() };
}

/** The statements `work` sends to PostgreSQL (see spyOnStatements), once it is done. */
export async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const statements = spyOnStatements();
  try {
    await work();
    return statements.texts();
  } finally {
    statements.restore();
  }
}

export type AccountsErrorCode =
  | 'email_taken'
  | 'no_team'
  | 'not_found'
  | 'forbidden'
  | 'last_owner'
  | 'already_member'
  | 'invitation_not_pending'
  | 'invitation_expired';

/**
 * The caller's request cannot be applied; nothing was written (an expired invitation is marked
 * expired first). The api maps the code to a status (api/src/accounts/accounts.errors.ts).
 */
export class AccountsError extends Error {
  constructor(
    readonly code: AccountsErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AccountsError';
  }
}

export const emailTaken = () => new AccountsError('email_taken', 'An account with this email already exists');

/** A unique violation of the given constraint or index (PostgreSQL 23505). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' && driverError.constraint === constraint;
}

import { COMMON_PASSWORDS } from './common-passwords';

export const PASSWORD_MIN_LENGTH = 8;
// argon2 takes any length; the cap only stops megabyte "passwords" from costing CPU.
export const PASSWORD_MAX_LENGTH = 128;

export type PasswordProblem = 'too_short' | 'too_long' | 'too_common' | 'contains_email';

export const PASSWORD_PROBLEM_MESSAGES: Record<PasswordProblem, string> = {
  too_short: `must be at least ${PASSWORD_MIN_LENGTH} characters`,
  too_long: `must be at most ${PASSWORD_MAX_LENGTH} characters`,
  too_common: 'is too common: choose one that is harder to guess',
  contains_email: 'must not contain your email address',
};

/**
 * The problems of a password (none: acceptable). Length counts characters, not bytes, as
 * users do; a password that is only a common one with a digit or two appended is common too.
 */
export function passwordProblems(password: string, email?: string): PasswordProblem[] {
  const length = [...password].length;
  const problems: PasswordProblem[] = [];
  if (length < PASSWORD_MIN_LENGTH) problems.push('too_short');
  if (length > PASSWORD_MAX_LENGTH) problems.push('too_long');
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower) || COMMON_PASSWORDS.has(lower.replace(/[0-9!]{1,3}$/, ''))) problems.push('too_common');
  const local = email?.split('@')[0]?.toLowerCase();
  if (email && (lower.includes(email.toLowerCase()) || (local && local.length >= 4 && lower === local))) {
    problems.push('contains_email');
  }
  return problems;
}

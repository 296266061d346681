import { createHash, randomBytes } from 'node:crypto';

/** Lifetimes of the one-time tokens sent by email. */
export const VERIFICATION_TOKEN_TTL_MS = 24 * 3600 * 1000;
export const RESET_TOKEN_TTL_MS = 3600 * 1000;

/**
 * A one-time token: the raw value goes into the email link, only its SHA-256 is stored, so a
 * leaked database row cannot be replayed. 32 random bytes make a slow hash unnecessary.
 */
export function createAccountToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashAccountToken(token) };
}

export function hashAccountToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Emails are compared and stored lower-cased and trimmed (uniqueness is case-insensitive). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// What the header shows for a signed-in user (product spec section 2) and where sign-in returns.

export interface HeaderUser {
  name: string | null;
  email: string | null;
}

/** The name, or else the part of the email before the @. */
export function displayNameOf(user: HeaderUser): string {
  const name = user.name?.trim();
  if (name) return name;
  const email = user.email?.trim() ?? '';
  const at = email.indexOf('@');
  const local = at === -1 ? email : email.slice(0, at);
  return local || 'User';
}

/** The email if it contains an @, otherwise "Premium User". */
export function subtitleOf(user: HeaderUser): string {
  const email = user.email?.trim() ?? '';
  return email.includes('@') ? email : 'Premium User';
}

/** First letter of the name, upper-cased, or U. */
export function initialOf(user: HeaderUser): string {
  const first = user.name?.trim().charAt(0);
  return first ? first.toUpperCase() : 'U';
}

export const DEFAULT_SIGNED_IN_PATH = '/dashboard';

/**
 * Where to go after signing in: the callbackUrl if it stays on this site (a path, or an absolute
 * url with our origin), else /dashboard. Never an open redirect.
 */
export function safeCallbackPath(raw: string | null | undefined, origin: string): string {
  if (!raw) return DEFAULT_SIGNED_IN_PATH;
  if (raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\')) return raw;
  try {
    const url = new URL(raw);
    if (url.origin === origin) return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    // Not a url: fall through.
  }
  return DEFAULT_SIGNED_IN_PATH;
}

export const SIGN_IN_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  SessionRequired: 'Please sign in to open that page.',
  CredentialsSignin: 'The email or password is not correct. Check them and try again.',
  OAuthCallbackError: 'Google sign-in did not complete. Please try again.',
  AccountNotLinkedError:
    'This email already belongs to an account that signs in another way. Sign in the way you used first.',
  EmailNotVerified: 'Please verify your email address first: follow the link in the email we sent you.',
  Verification: 'That verification link is invalid or has expired. Sign up again with the same email to get a new one.',
};

export const DEFAULT_SIGN_IN_ERROR = 'Sign-in did not work. Please try again.';

export function signInErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return SIGN_IN_ERROR_MESSAGES[code] ?? DEFAULT_SIGN_IN_ERROR;
}

// The accounts api's password policy (jobs/src/accounts/password-policy.ts); it also refuses
// common passwords, which only the api checks, and its message is shown as it comes.
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export function passwordProblem(password: string, email?: string): string | null {
  // Characters, not UTF-16 units, as people count them.
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters for your password.`;
  if (length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters for your password.`;
  const address = email?.trim().toLowerCase();
  if (address && address.includes('@') && password.toLowerCase().includes(address)) {
    return 'Your password must not contain your email address.';
  }
  return null;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailProblem(email: string): string | null {
  if (email.trim() === '') return 'Enter your email address.';
  return EMAIL_PATTERN.test(email.trim()) ? null : 'Enter a valid email address, like name@example.com.';
}

import {
  DEFAULT_SIGN_IN_ERROR,
  displayNameOf,
  emailProblem,
  initialOf,
  passwordProblem,
  safeCallbackPath,
  signInErrorMessage,
  subtitleOf,
} from './session-rules';

describe('header user rules', () => {
  it('shows the name when there is one', () => {
    expect(displayNameOf({ name: 'Grace Hopper', email: 'grace@example.com' })).toBe('Grace Hopper');
  });

  it('falls back to the part of the email before the @', () => {
    expect(displayNameOf({ name: null, email: 'grace.h@example.com' })).toBe('grace.h');
    expect(displayNameOf({ name: '  ', email: 'ops@desk.io' })).toBe('ops');
  });

  it('uses the email as subtitle only when it contains an @', () => {
    expect(subtitleOf({ name: 'G', email: 'grace@example.com' })).toBe('grace@example.com');
    expect(subtitleOf({ name: 'G', email: 'not-an-email' })).toBe('Premium User');
    expect(subtitleOf({ name: 'G', email: null })).toBe('Premium User');
  });

  it('takes the first letter of the name for the avatar, or U', () => {
    expect(initialOf({ name: 'ada', email: null })).toBe('A');
    expect(initialOf({ name: null, email: 'zed@example.com' })).toBe('U');
  });
});

describe('safeCallbackPath', () => {
  const origin = 'https://tickerbell.test';

  it('keeps a same-site path or absolute url', () => {
    expect(safeCallbackPath('/dashboard/activity?x=1', origin)).toBe('/dashboard/activity?x=1');
    expect(safeCallbackPath('https://tickerbell.test/dashboard/settings', origin)).toBe('/dashboard/settings');
  });

  it('sends other origins and protocol-relative urls to /dashboard', () => {
    expect(safeCallbackPath('https://evil.test/steal', origin)).toBe('/dashboard');
    expect(safeCallbackPath('//evil.test/steal', origin)).toBe('/dashboard');
    expect(safeCallbackPath(null, origin)).toBe('/dashboard');
  });
});

describe('signInErrorMessage', () => {
  it.each(['SessionRequired', 'CredentialsSignin', 'OAuthCallbackError', 'AccountNotLinkedError'])(
    'has its own message for %s',
    (code) => {
      const message = signInErrorMessage(code);
      expect(message).toBeTruthy();
      expect(message).not.toBe(DEFAULT_SIGN_IN_ERROR);
    },
  );

  it('uses the default message for unknown codes and nothing without a code', () => {
    expect(signInErrorMessage('NO_SECRET')).toBe(DEFAULT_SIGN_IN_ERROR);
    expect(signInErrorMessage(null)).toBeNull();
  });
});

describe('password and email checks', () => {
  it('wants at least 8 characters, counted as characters', () => {
    expect(passwordProblem('1234567')).toMatch(/at least 8/);
    expect(passwordProblem('correct horse')).toBeNull();
    expect(passwordProblem('😀😀😀😀')).toMatch(/at least 8/);
  });

  it('refuses passwords over 128 characters or containing the email', () => {
    expect(passwordProblem('a'.repeat(129))).toMatch(/at most 128/);
    expect(passwordProblem('xxada@example.comxx', 'ada@example.com')).toMatch(/email/);
  });

  it('checks the email shape', () => {
    expect(emailProblem('')).toMatch(/Enter your email/);
    expect(emailProblem('ada@')).toMatch(/valid email/);
    expect(emailProblem('ada@example.com')).toBeNull();
  });
});

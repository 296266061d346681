import { createAccountToken, hashAccountToken, normalizeEmail } from '../../src/accounts/account-tokens';
import { passwordProblems } from '../../src/accounts/password-policy';
import { sameOriginUrl } from '../../src/accounts/callback-url';
import { canActOnMember, canGrantRole, canManageMembers, checkOwnerRemains } from '../../src/accounts/team-rules';

describe('password policy', () => {
  it.each([
    ['seven characters', 'abcdefg', ['too_short']],
    ['a common password', 'password', ['too_common']],
    ['a common password with digits appended', 'Sunshine12', ['too_common']],
    ['a password over 128 characters', 'x'.repeat(129), ['too_long']],
    ['the email itself', 'jo.doe@example.com', ['contains_email']],
  ])('rejects %s', (_label, password, problems) => {
    expect(passwordProblems(password, 'jo.doe@example.com')).toEqual(problems);
  });

  it('accepts a long uncommon passphrase, counting characters not bytes', () => {
    expect(passwordProblems('correct horse battery staple', 'jo@example.com')).toEqual([]);
    expect(passwordProblems('ñandúñandú')).toEqual([]);
    expect(passwordProblems('ñandú12')).toEqual(['too_short']);
  });
});

describe('account tokens', () => {
  it('stores only a hash of a random url-safe token', () => {
    const a = createAccountToken();
    const b = createAccountToken();
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.hash).toBe(hashAccountToken(a.token));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('normalises emails for case-insensitive uniqueness', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
});

describe('team role rules', () => {
  it('lets owners and admins manage, not members', () => {
    expect([canManageMembers('owner'), canManageMembers('admin'), canManageMembers('member')]).toEqual([true, true, false]);
  });

  it('lets an admin grant admin and member but not owner', () => {
    expect(canGrantRole('admin', 'member')).toBe(true);
    expect(canGrantRole('admin', 'admin')).toBe(true);
    expect(canGrantRole('admin', 'owner')).toBe(false);
    expect(canGrantRole('owner', 'owner')).toBe(true);
  });

  it('stops an admin acting on an owner', () => {
    expect(canActOnMember('admin', 'owner')).toBe(false);
    expect(canActOnMember('owner', 'admin')).toBe(true);
  });

  it('keeps the last owner', () => {
    expect(checkOwnerRemains('owner', null, 1)).toBe('last_owner');
    expect(checkOwnerRemains('owner', 'admin', 1)).toBe('last_owner');
    expect(checkOwnerRemains('owner', null, 2)).toBeNull();
    expect(checkOwnerRemains('member', null, 1)).toBeNull();
  });
});

describe('same-origin callback urls', () => {
  const site = 'https://tickerbell.example';
  it.each([
    ['/dashboard', 'https://tickerbell.example/dashboard'],
    ['https://tickerbell.example/dashboard?x=1', 'https://tickerbell.example/dashboard?x=1'],
  ])('accepts %s', (value, expected) => {
    expect(sameOriginUrl(value, site)).toBe(expected);
  });

  it.each(['https://evil.example/', '//evil.example', '/\\evil.example', 'javascript:alert(1)', 'https://tickerbell.example.evil.example/', 'http://tickerbell.example/', '/ok\u0000'])(
    'refuses %s',
    (value) => {
      expect(sameOriginUrl(value, site)).toBeNull();
    },
  );
});

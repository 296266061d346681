import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { AccountsError } from '../../src/accounts/accounts-error';
import { createUser, deleteUser, logClientActivity, setUserRole, signInWithGoogle, updateAccount, verifyEmail, type NewUser } from '../../src/accounts/accounts.store';

/** The store behaviours the api's route tests cannot reach (races, provider corner cases). Real PostgreSQL. */
describe('accounts store on a real database', () => {
  let db: TestDatabase;
  const NOW = new Date('2026-11-21T12:00:00Z');
  const HOUR = 3600_000;
  const q = (sql: string, params: unknown[] = []) => db.dataSource.query(sql, params);
  const newUser = (email: string, extra: Partial<NewUser> = {}): NewUser => ({ email, name: null, passwordHash: null, isVerified: true, ...extra });

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('creates a user with a personal team, default preferences and SIGN_UP; a second one with the address (any case) is email_taken and leaves nothing', async () => {
    const user = await createUser(db.dataSource, newUser('first@example.com', { name: 'First' }), '203.0.113.5');
    const [team] = await q(
      `SELECT t.name, m.role FROM teams t JOIN team_members m ON m.team_id = t.id WHERE m.user_id = $1`,
      [user.id],
    );
    expect(team).toEqual({ name: "First's team", role: 'owner' });
    expect(await q('SELECT count(*)::int AS n FROM user_preferences WHERE user_id = $1', [user.id])).toEqual([{ n: 1 }]);
    expect(await q('SELECT action, ip_address FROM activity_logs WHERE user_id = $1', [user.id])).toEqual([{ action: 'SIGN_UP', ip_address: '203.0.113.5' }]);

    // The race the route's pre-check cannot close: the unique index decides, and the transaction leaves no team behind.
    const [{ teams }] = await q('SELECT count(*)::int AS teams FROM teams');
    const taken = await createUser(db.dataSource, newUser('FIRST@example.com'), null).catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(AccountsError);
    expect(taken).toMatchObject({ code: 'email_taken' });
    expect(await q('SELECT count(*)::int AS teams FROM teams')).toEqual([{ teams }]);
  });

  it('refuses an email verification whose new address was taken meanwhile, and changes nothing', async () => {
    const mover = await createUser(db.dataSource, newUser('mover@example.com'), null);
    await updateAccount(db.dataSource, mover.id, { pendingEmail: { email: 'wanted@example.com', tokenHash: 'h-wanted', expiresAt: new Date(NOW.getTime() + HOUR) } }, null, ['email']);
    await createUser(db.dataSource, newUser('wanted@example.com'), null);

    expect(await verifyEmail(db.dataSource, 'h-wanted', NOW, null)).toBe(false);
    const [row] = await q('SELECT email, pending_email, verification_token FROM users WHERE id = $1', [mover.id]);
    expect(row).toEqual({ email: 'mover@example.com', pending_email: 'wanted@example.com', verification_token: 'h-wanted' });
    // An expired token is refused too.
    expect(await verifyEmail(db.dataSource, 'h-wanted', new Date(NOW.getTime() + 2 * HOUR), null)).toBe(false);
  });

  it('refuses an email change to another live account, and logs only real changes', async () => {
    const a = await createUser(db.dataSource, newUser('keeper@example.com'), null);
    await createUser(db.dataSource, newUser('other@example.com'), null);
    await expect(
      updateAccount(db.dataSource, a.id, { pendingEmail: { email: 'other@example.com', tokenHash: 'h', expiresAt: NOW } }, null, ['email']),
    ).rejects.toMatchObject({ code: 'email_taken' });
    await updateAccount(db.dataSource, a.id, {}, null, []);
    expect(await q(`SELECT count(*)::int AS n FROM activity_logs WHERE user_id = $1 AND action = 'UPDATE_ACCOUNT'`, [a.id])).toEqual([{ n: 0 }]);
  });

  it('refuses a Google profile without a verified email, creating nothing', async () => {
    const [{ before }] = await q('SELECT count(*)::int AS before FROM users');
    const refused = await signInWithGoogle(
      db.dataSource,
      { googleId: 'g-unverified', email: 'unverified@example.com', emailVerified: false, displayName: 'U', photo: undefined },
      null,
      null,
    );
    expect(refused).toEqual({ refusal: 'OAuthCallbackError' });
    expect(await q('SELECT count(*)::int AS before FROM users')).toEqual([{ before }]);
  });

  it('signs in a user known by google_id alone and records the link once', async () => {
    const user = await createUser(db.dataSource, newUser('legacy@example.com', { googleId: 'g-legacy' }), null);
    const profile = { googleId: 'g-legacy', email: 'legacy@example.com', emailVerified: true, displayName: 'L', photo: undefined };
    expect(await signInWithGoogle(db.dataSource, profile, null, null)).toMatchObject({ id: user.id });
    expect(await signInWithGoogle(db.dataSource, profile, null, null)).toMatchObject({ id: user.id });
    expect(await q(`SELECT user_id FROM accounts WHERE provider = 'google' AND provider_account_id = 'g-legacy'`)).toEqual([{ user_id: user.id }]);
  });

  it('deletes an account: its team of one goes, a shared team keeps its other members', async () => {
    const leaver = await createUser(db.dataSource, newUser('leaver@example.com'), null);
    const stayer = await createUser(db.dataSource, newUser('stayer@example.com'), null);
    const [{ team_id: ownTeam }] = await q('SELECT team_id FROM team_members WHERE user_id = $1', [leaver.id]);
    const [{ team_id: sharedTeam }] = await q('SELECT team_id FROM team_members WHERE user_id = $1', [stayer.id]);
    await q(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'member')`, [sharedTeam, leaver.id]);

    const deleted = await deleteUser(db.dataSource, leaver.id, NOW, null);
    // The shared team it left, for billing's seat sync (its own team is gone).
    expect(deleted.leftTeams).toEqual([{ teamId: sharedTeam, members: 1 }]);
    expect(await q('SELECT id FROM teams WHERE id = $1', [ownTeam])).toEqual([]);
    expect(await q('SELECT user_id FROM team_members WHERE team_id = $1', [sharedTeam])).toEqual([{ user_id: stayer.id }]);
    const [row] = await q('SELECT deleted_at FROM users WHERE id = $1', [leaver.id]);
    expect(row.deleted_at).toEqual(NOW);
  });

  it('logs a client activity under the primary team, and refuses a user without a team: no_team', async () => {
    const member = await createUser(db.dataSource, newUser('logger@example.com'), null);
    const logged = await logClientActivity(db.dataSource, member.id, 'MARKET_OPEN', '198.51.100.1', { market: 'NYSE' });
    expect(logged).toMatchObject({ id: expect.any(Number), action: 'MARKET_OPEN', timestamp: expect.any(String) });
    await q('DELETE FROM team_members WHERE user_id = $1', [member.id]);
    await expect(logClientActivity(db.dataSource, member.id, 'MARKET_OPEN', null, null)).rejects.toMatchObject({ code: 'no_team' });
  });

  it('sets the site-wide role by email, case-insensitively; null for an unknown or deleted user', async () => {
    const boss = await createUser(db.dataSource, newUser('boss@example.com'), null);
    expect(await setUserRole(db.dataSource, ' BOSS@example.com ', 'admin')).toEqual({ id: boss.id, email: 'boss@example.com' });
    expect(await q('SELECT role FROM users WHERE id = $1', [boss.id])).toEqual([{ role: 'admin' }]);
    expect(await setUserRole(db.dataSource, 'nobody@example.com', 'admin')).toBeNull();
    await deleteUser(db.dataSource, boss.id, NOW, null);
    expect(await setUserRole(db.dataSource, 'boss@example.com', 'member')).toBeNull();
  });
});

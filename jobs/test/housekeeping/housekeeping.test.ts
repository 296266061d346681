import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { INVITATION_TTL_DAYS } from '../../src/accounts/team-rules';
import { purgeExpired } from '../../src/housekeeping/housekeeping.store';

const NOW = new Date('2026-11-21T12:00:00Z');
const HOUR = 3600_000;

describe('housekeeping: purgeExpired on a real database', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    const q = (sql: string, params: unknown[] = []) => db.dataSource.query(sql, params);
    await q(
      `INSERT INTO users (email, verification_token, verification_token_expiry, reset_token, reset_token_expiry) VALUES
        ('expired@example.com', 'v-expired', $1, 'r-expired', $1),
        ('valid@example.com', 'v-valid', $2, 'r-valid', $2),
        ('none@example.com', NULL, NULL, NULL, NULL)`,
      [new Date(NOW.getTime() - HOUR), new Date(NOW.getTime() + HOUR)],
    );
    const [{ id: teamId }] = await q(`INSERT INTO teams (name) VALUES ('Desk') RETURNING id`);
    const [{ id: userId }] = await q(`SELECT id FROM users WHERE email = 'valid@example.com'`);
    const old = new Date(NOW.getTime() - (INVITATION_TTL_DAYS * 24 + 1) * HOUR);
    const recent = new Date(NOW.getTime() - HOUR);
    await q(
      `INSERT INTO invitations (team_id, email, role, invited_by, invited_at, status) VALUES
        ($1, 'old@example.com', 'member', $2, $3, 'pending'),
        ($1, 'recent@example.com', 'member', $2, $4, 'pending'),
        ($1, 'accepted@example.com', 'member', $2, $3, 'accepted')`,
      [teamId, userId, old, recent],
    );
    await q(
      `INSERT INTO sessions (sid, sess, expire) VALUES ('gone', '{}', $1), ('alive', '{}', $2)`,
      [new Date(NOW.getTime() - 1000), new Date(NOW.getTime() + HOUR)],
    );
  });

  afterAll(() => db.drop());

  it('clears only what has expired, and counts it', async () => {
    const result = await purgeExpired(db.dataSource, NOW);
    expect(result).toEqual({ verificationTokensCleared: 1, resetTokensCleared: 1, invitationsExpired: 1, sessionsDeleted: 1 });

    const users = await db.dataSource.query(
      `SELECT email, verification_token, reset_token FROM users ORDER BY email`,
    );
    expect(users).toEqual([
      { email: 'expired@example.com', verification_token: null, reset_token: null },
      { email: 'none@example.com', verification_token: null, reset_token: null },
      { email: 'valid@example.com', verification_token: 'v-valid', reset_token: 'r-valid' },
    ]);
    const invitations = await db.dataSource.query(`SELECT email, status FROM invitations ORDER BY email`);
    expect(invitations).toEqual([
      { email: 'accepted@example.com', status: 'accepted' },
      { email: 'old@example.com', status: 'expired' },
      { email: 'recent@example.com', status: 'pending' },
    ]);
    expect(await db.dataSource.query(`SELECT sid FROM sessions`)).toEqual([{ sid: 'alive' }]);
  });

  it('changes nothing when run again at the same instant (safe to retry)', async () => {
    const again = await purgeExpired(db.dataSource, NOW);
    expect(again).toEqual({ verificationTokensCleared: 0, resetTokensCleared: 0, invitationsExpired: 0, sessionsDeleted: 0 });
  });
});

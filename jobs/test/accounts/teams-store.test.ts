import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { AccountsError } from '../../src/accounts/accounts-error';
import { INVITATION_TTL_DAYS } from '../../src/accounts/team-rules';
import { acceptInvitation, createTeam, inviteMember, listInvitations, teamActivity } from '../../src/accounts/teams.store';
import { createUser } from '../../src/accounts/accounts.store';
import { createEntitlements } from '../../src/billing/entitlements';

/** The teams store behaviours the api's route tests do not reach. Real PostgreSQL. */
describe('teams store on a real database', () => {
  let db: TestDatabase;
  const NOW = new Date('2026-11-21T12:00:00Z');
  const DAY = 24 * 3600_000;
  const q = (sql: string, params: unknown[] = []) => db.dataSource.query(sql, params);
  const user = (email: string) => createUser(db.dataSource, { email, name: null, passwordHash: null, isVerified: true }, null);

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('refuses to invite someone already a member (already_member); a new invitation to an address replaces the pending one', async () => {
    const owner = await user('owner@example.com');
    const member = await user('member@example.com');
    const team = await createTeam(db.dataSource, owner.id, 'Desk', null);
    await q(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'member')`, [team.id, member.id]);
    const invite = (email: string, tokenHash: string) =>
      inviteMember(db.dataSource, { teamId: team.id, inviterId: owner.id, email, role: 'member', tokenHash, ipAddress: null, now: NOW });

    const refused = await invite('member@example.com', 'h-member').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AccountsError);
    expect(refused).toMatchObject({ code: 'already_member' });

    const first = await invite('new@example.com', 'h-first');
    expect(first).toMatchObject({ teamName: 'Desk', invitation: { email: 'new@example.com', status: 'pending', invitedBy: owner.id } });
    const second = await invite('new@example.com', 'h-second');
    const rows = await q('SELECT id, status, responded_at FROM invitations WHERE team_id = $1 ORDER BY id', [team.id]);
    expect(rows).toEqual([
      { id: first.invitation.id, status: 'revoked', responded_at: NOW },
      { id: second.invitation.id, status: 'pending', responded_at: null },
    ]);
  });

  it('marks an expired invitation expired when accepted (kept after the refusal), and lists old pending ones as expired', async () => {
    const owner = await user('lister@example.com');
    const invitee = await user('late@example.com');
    const team = await createTeam(db.dataSource, owner.id, 'Late desk', null);
    const { invitation } = await inviteMember(db.dataSource, {
      teamId: team.id,
      inviterId: owner.id,
      email: 'late@example.com',
      role: 'member',
      tokenHash: 'h-late',
      ipAddress: null,
      now: NOW,
    });
    const later = new Date(Date.parse(invitation.invitedAt) + INVITATION_TTL_DAYS * DAY);

    expect((await listInvitations(db.dataSource, team.id, owner.id, later)).map((i) => i.status)).toEqual(['expired']);
    expect(await q('SELECT status FROM invitations WHERE id = $1', [invitation.id])).toEqual([{ status: 'pending' }]);

    const accepting = acceptInvitation(db.dataSource, { tokenHash: 'h-late', userId: invitee.id, userEmail: 'LATE@example.com', ipAddress: null, now: later }, createEntitlements({ billingEnabled: false, graceDays: 7 }));
    await expect(accepting).rejects.toMatchObject({ code: 'invitation_expired' });
    expect(await q('SELECT status FROM invitations WHERE id = $1', [invitation.id])).toEqual([{ status: 'expired' }]);
    expect(await q('SELECT user_id FROM team_members WHERE team_id = $1 AND user_id = $2', [team.id, invitee.id])).toEqual([]);
    // Not a member of the team: the invitations are hidden as if the team did not exist.
    await expect(listInvitations(db.dataSource, team.id, invitee.id, later)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('pages a team activity log newest first with the total', async () => {
    const owner = await user('pager@example.com');
    const team = await createTeam(db.dataSource, owner.id, 'Paged', null);
    await q(`UPDATE activity_logs SET timestamp = $2 WHERE team_id = $1`, [team.id, new Date(NOW.getTime() - DAY)]);
    for (let i = 0; i < 3; i++) {
      await q(`INSERT INTO activity_logs (team_id, user_id, action, timestamp) VALUES ($1, $2, 'SIGN_IN', $3)`, [team.id, owner.id, new Date(NOW.getTime() + i * 1000)]);
    }
    const page1 = await teamActivity(db.dataSource, team.id, owner.id, { page: 1, pageSize: 2 });
    const page2 = await teamActivity(db.dataSource, team.id, owner.id, { page: 2, pageSize: 2 });
    expect(page1.total).toBe(4);
    expect(page1.items.map((i) => i.timestamp)).toEqual([new Date(NOW.getTime() + 2000).toISOString(), new Date(NOW.getTime() + 1000).toISOString()]);
    expect(page2.items.map((i) => i.action)).toEqual(['SIGN_IN', 'CREATE_TEAM']);
  });
});

import request from 'supertest';
import { AccountsHarness, PUBLIC_URL, csrfOf, signUp, signedInUser, type Agent } from '../support/accounts-harness';
import { linkIn } from '../support/smtp-capture';

describe('accounts: teams, invitations, roles, activity and authorization across users', () => {
  const harness = new AccountsHarness();
  let app: ReturnType<AccountsHarness['app']>;

  beforeAll(async () => {
    await harness.start();
    app = harness.app();
  });
  afterAll(() => harness.stop());

  const send = async (agent: Agent, method: 'post' | 'put' | 'patch' | 'delete', path: string, body: Record<string, unknown> = {}) => {
    const csrfToken = await csrfOf(agent);
    return agent[method](path).send({ ...body, csrfToken });
  };

  it('invites by email, the invitee accepts through the emailed link, and both see the team; activity is logged newest first', async () => {
    const owner = request.agent(app);
    const ownerId = await signedInUser(harness, owner, 'team-owner@example.com', 'Olga');
    const created = await send(owner, 'post', '/api/teams', { name: 'Desk A' });
    expect(created.status).toBe(201);
    const teamId = created.body.id as number;

    const invited = await send(owner, 'post', `/api/teams/${teamId}/invitations`, { email: 'Invitee@Example.com', role: 'admin' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email: 'invitee@example.com', role: 'admin', status: 'pending' });

    const mail = await harness.smtp.waitFor('invitee@example.com', /invited to join Desk A/);
    const token = linkIn(mail, `${PUBLIC_URL}/invitations/accept`).searchParams.get('token')!;
    const lookup = await request(app).get(`/api/invitations/lookup?token=${token}`).expect(200);
    expect(lookup.body).toEqual({ teamName: 'Desk A', email: 'invitee@example.com', role: 'admin', status: 'pending' });

    // Someone else signed in cannot use the link.
    const stranger = request.agent(app);
    await signedInUser(harness, stranger, 'stranger@example.com');
    expect((await send(stranger, 'post', '/api/invitations/accept', { token })).status).toBe(403);

    const invitee = request.agent(app);
    const inviteeId = await signedInUser(harness, invitee, 'invitee@example.com');
    const accepted = await send(invitee, 'post', '/api/invitations/accept', { token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ teamId, role: 'admin' });
    expect((await send(invitee, 'post', '/api/invitations/accept', { token })).status).toBe(409);

    const team = await owner.get(`/api/teams/${teamId}`).expect(200);
    expect(team.body.members.map((m: { userId: number; role: string }) => [m.userId, m.role])).toEqual([
      [ownerId, 'owner'],
      [inviteeId, 'admin'],
    ]);
    const invitations = await owner.get(`/api/teams/${teamId}/invitations`).expect(200);
    expect(invitations.body.invitations[0].status).toBe('accepted');

    const activity = await invitee.get(`/api/teams/${teamId}/activity?page=1&pageSize=2`).expect(200);
    expect(activity.body.total).toBe(3);
    expect(activity.body.items.map((i: { action: string }) => i.action)).toEqual(['ACCEPT_INVITATION', 'INVITE_TEAM_MEMBER']);
    const page2 = await invitee.get(`/api/teams/${teamId}/activity?page=2&pageSize=2`).expect(200);
    expect(page2.body.items.map((i: { action: string }) => i.action)).toEqual(['CREATE_TEAM']);
  });

  it('refuses an expired or revoked invitation', async () => {
    const owner = request.agent(app);
    await signedInUser(harness, owner, 'revoker@example.com');
    const teamId = (await send(owner, 'post', '/api/teams', { name: 'Desk R' })).body.id;
    const first = await send(owner, 'post', `/api/teams/${teamId}/invitations`, { email: 'late@example.com' });
    const firstMail = await harness.smtp.waitFor('late@example.com', /Desk R/);
    await harness.db.dataSource.query(`UPDATE invitations SET invited_at = now() - interval '8 days' WHERE id = $1`, [first.body.id]);
    const late = request.agent(app);
    await signedInUser(harness, late, 'late@example.com');
    const expired = await send(late, 'post', '/api/invitations/accept', { token: linkIn(firstMail, `${PUBLIC_URL}/invitations/accept`).searchParams.get('token') });
    expect(expired.status).toBe(410);

    const second = await send(owner, 'post', `/api/teams/${teamId}/invitations`, { email: 'late@example.com' });
    await send(owner, 'delete', `/api/teams/${teamId}/invitations/${second.body.id}`).then((res) => expect(res.status).toBe(204));
    const [row] = await harness.db.dataSource.query('SELECT status FROM invitations WHERE id = $1', [second.body.id]);
    expect(row.status).toBe('revoked');
  });

  it('keeps the last owner: cannot leave, be removed or be demoted; members cannot manage; admins cannot make owners', async () => {
    const owner = request.agent(app);
    const ownerId = await signedInUser(harness, owner, 'solo-owner@example.com');
    const teamId = (await send(owner, 'post', '/api/teams', { name: 'Desk L' })).body.id;
    const member = request.agent(app);
    const memberId = await signedInUser(harness, member, 'plain-member@example.com');
    await harness.db.dataSource.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'member')`, [teamId, memberId]);

    expect((await send(owner, 'delete', `/api/teams/${teamId}/members/${ownerId}`)).body.error.code).toBe('last_owner');
    expect((await send(owner, 'patch', `/api/teams/${teamId}/members/${ownerId}`, { role: 'member' })).status).toBe(409);
    expect((await send(member, 'post', `/api/teams/${teamId}/invitations`, { email: 'x@example.com' })).status).toBe(403);
    expect((await send(member, 'delete', `/api/teams/${teamId}/members/${ownerId}`)).status).toBe(403);

    await send(owner, 'patch', `/api/teams/${teamId}/members/${memberId}`, { role: 'admin' }).then((res) => expect(res.status).toBe(200));
    expect((await send(member, 'post', `/api/teams/${teamId}/invitations`, { email: 'boss@example.com', role: 'owner' })).status).toBe(403);
    expect((await send(member, 'patch', `/api/teams/${teamId}/members/${ownerId}`, { role: 'member' })).status).toBe(403);

    // A member may leave; the owner may remove.
    await send(member, 'delete', `/api/teams/${teamId}/members/${memberId}`).then((res) => expect(res.status).toBe(204));
    const members = await owner.get(`/api/teams/${teamId}/members`).expect(200);
    expect(members.body.members).toHaveLength(1);
  });

  it('validates team bodies and params (400 naming the field)', async () => {
    const owner = request.agent(app);
    await signedInUser(harness, owner, 'validator@example.com');
    const noName = await send(owner, 'post', '/api/teams', { name: '' });
    expect(noName.status).toBe(400);
    expect(noName.body.error.details[0].field).toBe('name');
    const badRole = await send(owner, 'post', '/api/teams/1/invitations', { email: 'a@example.com', role: 'king' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error.details[0].field).toBe('role');
  });

  describe('authorization: every user and team route, as another user', () => {
    let victimTeamId: number;
    let victimId: number;
    let invitationId: number;
    let intruder: Agent;

    beforeAll(async () => {
      const victim = request.agent(app);
      victimId = await signedInUser(harness, victim, 'victim@example.com');
      victimTeamId = (await send(victim, 'post', '/api/teams', { name: 'Private desk' })).body.id;
      invitationId = (await send(victim, 'post', `/api/teams/${victimTeamId}/invitations`, { email: 'friend@example.com' })).body.id;
      intruder = request.agent(app);
      await signedInUser(harness, intruder, 'intruder@example.com');
    });

    const routes: [string, 'get' | 'post' | 'patch' | 'delete', (ids: { team: number; user: number; invitation: number }) => string, Record<string, unknown>][] = [
      ['read the team', 'get', (i) => `/api/teams/${i.team}`, {}],
      ['list its members', 'get', (i) => `/api/teams/${i.team}/members`, {}],
      ['read its activity', 'get', (i) => `/api/teams/${i.team}/activity`, {}],
      ['list its invitations', 'get', (i) => `/api/teams/${i.team}/invitations`, {}],
      ['invite into it', 'post', (i) => `/api/teams/${i.team}/invitations`, { email: 'spy@example.com' }],
      ['revoke its invitation', 'delete', (i) => `/api/teams/${i.team}/invitations/${i.invitation}`, {}],
      ['change a member role', 'patch', (i) => `/api/teams/${i.team}/members/${i.user}`, { role: 'member' }],
      ['remove a member', 'delete', (i) => `/api/teams/${i.team}/members/${i.user}`, {}],
    ];

    it.each(routes)('refuses to %s (403/404) and changes nothing', async (_label, method, path, body) => {
      const url = path({ team: victimTeamId, user: victimId, invitation: invitationId });
      const res = method === 'get' ? await intruder.get(url) : await send(intruder, method, url, body);
      expect([403, 404]).toContain(res.status);
      const [{ n }] = await harness.db.dataSource.query(`SELECT count(*)::int AS n FROM team_members WHERE team_id = $1 AND role = 'owner'`, [victimTeamId]);
      expect(n).toBe(1);
      const [{ status }] = await harness.db.dataSource.query('SELECT status FROM invitations WHERE id = $1', [invitationId]);
      expect(status).toBe('pending');
    });

    it('answers the user routes with the caller only: another user never appears', async () => {
      const me = await intruder.get('/api/user').expect(200);
      expect(me.body.email).toBe('intruder@example.com');
      const teams = await intruder.get('/api/teams').expect(200);
      expect(teams.body.teams.map((t: { id: number }) => t.id)).not.toContain(victimTeamId);
    });

    it.each([
      ['get', '/api/user'],
      ['patch', '/api/user'],
      ['post', '/api/user/password'],
      ['delete', '/api/user'],
      ['get', '/api/user/preferences'],
      ['put', '/api/user/preferences'],
      ['get', '/api/user/pwa-install'],
      ['post', '/api/user/pwa-install'],
      ['post', '/api/notifications/log'],
      ['get', '/api/teams'],
      ['post', '/api/teams'],
      ['post', '/api/invitations/accept'],
    ] as const)('answers %s %s without a session: 401 Not authenticated', async (method, path) => {
      const res = await request(app)[method](path).send({});
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe('Not authenticated');
    });
  });

  it('lets a sign-up reuse an address after its account was deleted', async () => {
    const agent = request.agent(app);
    await signedInUser(harness, agent, 'phoenix@example.com');
    await send(agent, 'delete', '/api/user').then((res) => expect(res.status).toBe(204));
    expect((await signUp(request.agent(app), 'phoenix@example.com')).status).toBe(201);
  });
});

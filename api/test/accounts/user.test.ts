import request from 'supertest';
import { AccountsHarness, GOOD_PASSWORD, PUBLIC_URL, csrfOf, local, signIn, signedInUser, type Agent } from '../support/accounts-harness';
import { linkIn } from '../support/smtp-capture';

describe('accounts: the user, preferences, pwa-install, notifications/log and the admin board', () => {
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

  it('reads the user, and changes the email only once the new address is verified', async () => {
    const agent = request.agent(app);
    const id = await signedInUser(harness, agent, 'mover@example.com', 'Mo');
    expect((await agent.get('/api/user').expect(200)).body).toMatchObject({ id, name: 'Mo', email: 'mover@example.com', isVerified: true, hasPassword: true });

    const patched = await send(agent, 'patch', '/api/user', { name: 'Mo Vee', email: 'moved@example.com' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Mo Vee', email: 'mover@example.com', pendingEmail: 'moved@example.com' });

    const mail = await harness.smtp.waitFor('moved@example.com', /Confirm your email/);
    await request(app).get(local(linkIn(mail, `${PUBLIC_URL}/api/auth/verify-email`))).expect(302);
    expect((await agent.get('/api/user')).body).toMatchObject({ email: 'moved@example.com', pendingEmail: null });
    expect((await signIn(request.agent(app), 'moved@example.com')).status).toBe(200);
  });

  it('refuses an email change to an address in use (409)', async () => {
    const agent = request.agent(app);
    await signedInUser(harness, agent, 'first@example.com');
    await signedInUser(harness, request.agent(app), 'second@example.com');
    const res = await send(agent, 'patch', '/api/user', { email: 'SECOND@example.com' });
    expect(res.status).toBe(409);
  });

  it('changes the password with the current one, ends the other sessions and keeps this one', async () => {
    const here = request.agent(app);
    await signedInUser(harness, here, 'changer@example.com');
    const elsewhere = request.agent(app);
    await signIn(elsewhere, 'changer@example.com');

    const wrong = await send(here, 'post', '/api/user/password', { currentPassword: 'not it at all', newPassword: 'fresh passphrase here' });
    expect(wrong.status).toBe(400);
    const weak = await send(here, 'post', '/api/user/password', { currentPassword: GOOD_PASSWORD, newPassword: 'password1' });
    expect(weak.status).toBe(400);
    expect(weak.body.error.details[0].field).toBe('newPassword');

    const ok = await send(here, 'post', '/api/user/password', { currentPassword: GOOD_PASSWORD, newPassword: 'fresh passphrase here' });
    expect(ok.status).toBe(200);
    expect((await here.get('/api/auth/session')).body.user.email).toBe('changer@example.com');
    expect((await elsewhere.get('/api/auth/session')).body).toEqual({});
    expect((await signIn(request.agent(app), 'changer@example.com', 'fresh passphrase here')).status).toBe(200);
  });

  it('deletes the account softly: deletedAt set, every session ended, DELETE_ACCOUNT logged, sign-in refused', async () => {
    const agent = request.agent(app);
    const id = await signedInUser(harness, agent, 'leaver@example.com');
    const other = request.agent(app);
    await signIn(other, 'leaver@example.com');
    await send(agent, 'delete', '/api/user').then((res) => expect(res.status).toBe(204));

    const [row] = await harness.db.dataSource.query('SELECT deleted_at FROM users WHERE id = $1', [id]);
    expect(row.deleted_at).toBeInstanceOf(Date);
    const [{ n }] = await harness.db.dataSource.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [id]);
    expect(n).toBe(0);
    expect((await other.get('/api/auth/session')).body).toEqual({});
    const [log] = await harness.db.dataSource.query(`SELECT action FROM activity_logs WHERE user_id = $1 AND action = 'DELETE_ACCOUNT'`, [id]);
    expect(log).toBeDefined();
    expect((await signIn(request.agent(app), 'leaver@example.com')).status).toBe(401);
  });

  it('refuses to delete the last owner of a team with other members (409), and changes nothing', async () => {
    const agent = request.agent(app);
    const id = await signedInUser(harness, agent, 'captain@example.com');
    const other = await signedInUser(harness, request.agent(app), 'crew@example.com');
    const [{ team_id: teamId }] = await harness.db.dataSource.query('SELECT team_id FROM team_members WHERE user_id = $1', [id]);
    await harness.db.dataSource.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'member')`, [teamId, other]);
    const res = await send(agent, 'delete', '/api/user');
    expect(res.status).toBe(409);
    const [row] = await harness.db.dataSource.query('SELECT deleted_at FROM users WHERE id = $1', [id]);
    expect(row.deleted_at).toBeNull();
  });

  it('serves preferences with the defaults and stores validated flags', async () => {
    const agent = request.agent(app);
    await signedInUser(harness, agent, 'prefs@example.com');
    const defaults = await agent.get('/api/user/preferences').expect(200);
    expect(defaults.body).toEqual({
      marketOpenNotifications: true,
      marketCloseNotifications: true,
      marketOpeningSoonNotifications: true,
      marketClosingSoonNotifications: true,
      soundNotifications: true,
      emailNotifications: false,
      pushNotifications: true,
    });
    const saved = await send(agent, 'put', '/api/user/preferences', { soundNotifications: false, emailNotifications: true });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ soundNotifications: false, emailNotifications: true, pushNotifications: true });
    expect((await agent.get('/api/user/preferences')).body.soundNotifications).toBe(false);

    const bad = await send(agent, 'put', '/api/user/preferences', { soundNotifications: 'loud' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('soundNotifications');
    const unknown = await send(agent, 'put', '/api/user/preferences', { smsNotifications: true });
    expect(unknown.status).toBe(400);
  });

  it('records a web-app install and reads it back', async () => {
    const agent = request.agent(app);
    await signedInUser(harness, agent, 'pwa@example.com');
    expect((await agent.get('/api/user/pwa-install').expect(200)).body).toEqual({ pwaInstalled: false });
    const res = await send(agent, 'post', '/api/user/pwa-install', { installSource: 'header-banner' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pwaInstalled: true, pwaInstallSource: 'header-banner' });
    expect((await agent.get('/api/user/pwa-install')).body).toEqual({ pwaInstalled: true });
    expect((await send(agent, 'post', '/api/user/pwa-install', { installSource: 'x'.repeat(51) })).status).toBe(400);
  });

  it('logs a notification activity with the team, user and IP; validates the kind; 400 when the user has no team', async () => {
    const agent = request.agent(app);
    const id = await signedInUser(harness, agent, 'notified@example.com');
    const details = { title: 'NYSE now open', message: 'has opened for trading', type: 'info', exchangeId: 'nyse', importance: 'medium' };
    const res = await send(agent, 'post', '/api/notifications/log', { activityType: 'MARKET_OPEN', details });
    expect(res.status).toBe(201);
    const [row] = await harness.db.dataSource.query('SELECT team_id, user_id, action, ip_address, details FROM activity_logs WHERE id = $1', [res.body.id]);
    expect(row).toMatchObject({ user_id: id, action: 'MARKET_OPEN', details });
    expect(row.team_id).toEqual(expect.any(Number));
    expect(row.ip_address).toMatch(/127\.0\.0\.1|::1/);

    const bad = await send(agent, 'post', '/api/notifications/log', { activityType: 'MARKET_EXPLODED' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('activityType');

    await harness.db.dataSource.query('DELETE FROM team_members WHERE user_id = $1', [id]);
    const noTeam = await send(agent, 'post', '/api/notifications/log', { activityType: 'MARKET_CLOSE' });
    expect(noTeam.status).toBe(400);
    expect(noTeam.body.error.message).toBe('User is not part of a team');
  });

  it('opens bull-board to a signed-in admin only', async () => {
    const agent = request.agent(app);
    const id = await signedInUser(harness, agent, 'operator@example.com');
    expect((await agent.get('/admin/queues/api/queues')).status).toBe(403);
    const browser = await request(app).get('/admin/queues').set('Accept', 'text/html').expect(302);
    expect(browser.headers.location).toContain('/sign-in?error=SessionRequired');

    await harness.db.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [id]);
    const board = await agent.get('/admin/queues/api/queues').expect(200);
    expect(board.body.queues.map((q: { name: string }) => q.name)).toContain('mail');
    const crossSite = await agent.put('/admin/queues/api/queues/mail/pause').set('Origin', 'https://evil.example');
    expect(crossSite.status).toBe(403);
  });
});

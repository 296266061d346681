import request from 'supertest';
import { AccountsHarness, PUBLIC_URL, csrfOf, local, signedInUser, type Agent } from '../support/accounts-harness';

describe('accounts: Google sign-in, the whole OAuth dance against a local fake provider', () => {
  const harness = new AccountsHarness();
  let app: ReturnType<AccountsHarness['app']>;

  beforeAll(async () => {
    await harness.start();
    app = harness.app();
  });
  afterAll(() => harness.stop());

  /** Browser steps: POST signin/google, follow to the provider, come back to our callback. */
  async function googleDance(agent: Agent, callbackUrl = '/dashboard') {
    const csrfToken = await csrfOf(agent);
    const started = await agent.post('/api/auth/signin/google').send({ csrfToken, callbackUrl, json: true }).expect(200);
    const authorize = new URL(started.body.url);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/callback/google`);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    const provider = await request(authorize.origin).get(local(authorize)).expect(302);
    return agent.get(local(provider.headers.location));
  }

  it('creates a verified account with a personal team on first Google sign-in, and signs the same user in next time', async () => {
    harness.google.nextProfile = { sub: 'g-1001', email: 'Lin@Example.com', email_verified: true, name: 'Lin G', picture: 'https://img.example/lin.png' };
    const agent = request.agent(app);
    const back = await googleDance(agent, '/dashboard/alerts');
    expect(back.status).toBe(302);
    expect(back.headers.location).toBe(`${PUBLIC_URL}/dashboard/alerts`);
    const session = await agent.get('/api/auth/session').expect(200);
    expect(session.body.user).toMatchObject({ name: 'Lin G', email: 'lin@example.com', image: 'https://img.example/lin.png', role: 'member' });

    const [link] = await harness.db.dataSource.query(`SELECT provider, provider_account_id FROM accounts WHERE user_id = $1`, [session.body.user.id]);
    expect(link).toEqual({ provider: 'google', provider_account_id: 'g-1001' });
    const teams = await agent.get('/api/teams').expect(200);
    expect(teams.body.teams).toHaveLength(1);

    const again = request.agent(app);
    await googleDance(again);
    expect((await again.get('/api/auth/session')).body.user.id).toBe(session.body.user.id);
    const users = await harness.db.dataSource.query(`SELECT count(*)::int AS n FROM users WHERE lower(email) = 'lin@example.com'`);
    expect(users[0].n).toBe(1);
  });

  it('refuses to take over a password account with the same email: AccountNotLinkedError', async () => {
    await signedInUser(harness, request.agent(app), 'owner@example.com');
    harness.google.nextProfile = { sub: 'g-2002', email: 'owner@example.com', email_verified: true, name: 'Impostor' };
    const agent = request.agent(app);
    const back = await googleDance(agent);
    expect(back.status).toBe(302);
    expect(back.headers.location).toBe(`${PUBLIC_URL}/sign-in?error=AccountNotLinkedError`);
    expect((await agent.get('/api/auth/session')).body).toEqual({});
  });

  it('links Google to the signed-in user who starts the dance, who can then sign in with Google', async () => {
    const agent = request.agent(app);
    const userId = await signedInUser(harness, agent, 'linker@example.com');
    harness.google.nextProfile = { sub: 'g-3003', email: 'someone-else@gmail.example', email_verified: true };
    await googleDance(agent);
    const fresh = request.agent(app);
    await googleDance(fresh);
    expect((await fresh.get('/api/auth/session')).body.user.id).toBe(userId);
  });

  it('answers OAuthCallbackError when the user denies access at the provider', async () => {
    harness.google.nextProfile = null;
    const agent = request.agent(app);
    const back = await googleDance(agent);
    expect(back.headers.location).toBe(`${PUBLIC_URL}/sign-in?error=OAuthCallbackError`);
  });

  it('answers OAuthCallbackError for a callback whose state was not issued to this browser', async () => {
    harness.google.nextProfile = { sub: 'g-4004', email: 'state@example.com', email_verified: true };
    const victim = request.agent(app);
    const csrfToken = await csrfOf(victim);
    const started = await victim.post('/api/auth/signin/google').send({ csrfToken, json: true }).expect(200);
    const provider = await request(new URL(started.body.url).origin).get(local(started.body.url)).expect(302);
    // Another browser replays the callback: its session holds no state.
    const attacker = request.agent(app);
    const back = await attacker.get(local(provider.headers.location)).expect(302);
    expect(back.headers.location).toBe(`${PUBLIC_URL}/sign-in?error=OAuthCallbackError`);
  });

  it('starts with a redirect for a form post, and needs the csrf token', async () => {
    const agent = request.agent(app);
    const csrfToken = await csrfOf(agent);
    const form = await agent.post('/api/auth/signin/google').type('form').send({ csrfToken }).expect(302);
    expect(form.headers.location).toContain('/o/oauth2/v2/auth?');
    const forged = await agent.post('/api/auth/signin/google').send({ csrfToken: 'nope', json: true });
    expect(forged.status).toBe(403);
  });
});

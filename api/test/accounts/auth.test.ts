import request from 'supertest';
import { User } from '@tickerbell/entities';
import { AccountsHarness, GOOD_PASSWORD, PUBLIC_URL, csrfOf, local, signIn, signUp, signedInUser, setCookies } from '../support/accounts-harness';
import { linkIn } from '../support/smtp-capture';

/** An agent that already has a session cookie, so a token fetched inside a request's arguments is its own. */
async function primed(app: Parameters<typeof request.agent>[0]) {
  const agent = request.agent(app);
  await csrfOf(agent);
  return agent;
}

describe('accounts: sign-up, sign-in, sessions (real Express, PostgreSQL, Redis, SMTP)', () => {
  const harness = new AccountsHarness();
  let app: ReturnType<AccountsHarness['app']>;

  beforeAll(async () => {
    await harness.start();
    app = harness.app();
  });
  afterAll(() => harness.stop());

  it('signs up, verifies through the emailed link, signs in with csrf, reads and updates the session, signs out', async () => {
    const agent = request.agent(app);
    const email = 'Ada.Lovelace@Example.com';

    const created = await signUp(agent, email, GOOD_PASSWORD, 'Ada');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ user: { email: 'ada.lovelace@example.com', name: 'Ada' }, verificationRequired: true });
    const userId = created.body.user.id as number;

    // Not verified yet: the right password is refused with its own code.
    const early = await signIn(agent, email);
    expect(early.status).toBe(401);
    expect(new URL(early.body.url).searchParams.get('error')).toBe('EmailNotVerified');

    const mail = await harness.smtp.waitFor('ada.lovelace@example.com', /Confirm your email/);
    const verified = await agent.get(local(linkIn(mail, `${PUBLIC_URL}/api/auth/verify-email`))).expect(302);
    expect(verified.headers.location).toBe(`${PUBLIC_URL}/sign-in?verified=1`);

    const before = await agent.get('/api/auth/session').expect(200);
    expect(before.body).toEqual({});

    const signedIn = await signIn(agent, email);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ url: `${PUBLIC_URL}/dashboard` });
    const cookie = setCookies(signedIn);
    expect(cookie.join(';')).toMatch(/tb\.sid=.*HttpOnly/);
    expect(cookie.join(';')).toMatch(/SameSite=Lax/);

    const session = await agent.get('/api/auth/session').expect(200);
    expect(session.body.user).toEqual({ id: userId, name: 'Ada', email: 'ada.lovelace@example.com', role: 'member' });
    expect(new Date(session.body.expires).getTime()).toBeGreaterThan(Date.now());
    const [row] = await harness.db.dataSource.query('SELECT user_id FROM sessions WHERE user_id = $1', [userId]);
    expect(row.user_id).toBe(userId);

    const updated = await agent
      .post('/api/auth/session')
      .send({ csrfToken: await csrfOf(agent), data: { name: 'Countess Ada' } })
      .expect(200);
    expect(updated.body.user.name).toBe('Countess Ada');

    const out = await agent.post('/api/auth/signout').send({ csrfToken: await csrfOf(agent), callbackUrl: '/dashboard', json: true }).expect(200);
    expect(out.body).toEqual({ url: `${PUBLIC_URL}/` });
    expect((await agent.get('/api/auth/session').expect(200)).body).toEqual({});
    const remaining = await harness.db.dataSource.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [userId]);
    expect(remaining[0].n).toBe(0);

    const actions = await harness.db.dataSource.query('SELECT action FROM activity_logs WHERE user_id = $1 ORDER BY id', [userId]);
    expect(actions.map((a: { action: string }) => a.action)).toEqual(['SIGN_UP', 'SIGN_IN', 'SIGN_OUT']);
  });

  it('creates a personal team owned by the new user and default preferences, and hashes with argon2id at OWASP settings', async () => {
    const res = await signUp(request.agent(app), 'grace@example.com');
    const user = await harness.db.dataSource.getRepository(User).findOneByOrFail({ id: res.body.user.id });
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const [member] = await harness.db.dataSource.query('SELECT role FROM team_members WHERE user_id = $1', [user.id]);
    expect(member.role).toBe('owner');
    const [prefs] = await harness.db.dataSource.query('SELECT email_notifications, push_notifications FROM user_preferences WHERE user_id = $1', [user.id]);
    expect(prefs).toEqual({ email_notifications: false, push_notifications: true });
  });

  it('regenerates the session id at sign-in', async () => {
    const agent = request.agent(app);
    await signedInUser(harness, agent, 'fixation@example.com');
    const anonymous = request.agent(app);
    const first = await anonymous.get('/api/auth/csrf');
    const before = setCookies(first)[0].split(';')[0];
    const signedIn = await signIn(anonymous, 'fixation@example.com');
    const after = (setCookies(signedIn))[0].split(';')[0];
    expect(after).not.toBe(before);
  });

  it('answers a wrong password and an unknown email alike: CredentialsSignin', async () => {
    await signedInUser(harness, request.agent(app), 'wrongpw@example.com');
    const wrong = await signIn(request.agent(app), 'wrongpw@example.com', 'not the password at all');
    const unknown = await signIn(request.agent(app), 'nobody-here@example.com', 'not the password at all');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.url).toBe(`${PUBLIC_URL}/sign-in?error=CredentialsSignin&provider=credentials`);
    }
  });

  it('redirects a form sign-in (no json flag) to the callback url', async () => {
    const agent = request.agent(app);
    await signedInUser(harness, agent, 'form@example.com');
    const other = request.agent(app);
    const csrfToken = await csrfOf(other);
    const res = await other
      .post('/api/auth/callback/credentials')
      .type('form')
      .send({ email: 'form@example.com', password: GOOD_PASSWORD, csrfToken, callbackUrl: `${PUBLIC_URL}/dashboard/alerts` })
      .expect(302);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/dashboard/alerts`);
  });

  it('refuses a sign-in, sign-up, sign-out or session update with a missing or wrong csrf token (403)', async () => {
    const agent = request.agent(app);
    await signedInUser(harness, agent, 'csrf@example.com');
    await csrfOf(agent);
    const attempts = [
      agent.post('/api/auth/callback/credentials').send({ email: 'csrf@example.com', password: GOOD_PASSWORD, json: true }),
      agent.post('/api/auth/signup').send({ email: 'other@example.com', password: GOOD_PASSWORD, csrfToken: 'wrong' }),
      agent.post('/api/auth/signout').send({ json: true }),
      agent.post('/api/auth/session').set('x-csrf-token', 'forged').send({ data: { name: 'Mallory' } }),
      agent.put('/api/user/preferences').send({ soundNotifications: false }),
      agent.post('/api/notifications/log').send({ activityType: 'MARKET_OPEN' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('csrf_invalid');
    }
    // Still signed in: the forged sign-out did nothing.
    expect((await agent.get('/api/auth/session')).body.user.email).toBe('csrf@example.com');
  });

  it('rejects a duplicate email, case-insensitively, with 409', async () => {
    await signUp(request.agent(app), 'dup@example.com');
    const res = await signUp(request.agent(app), 'DUP@example.com');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('email_taken');
  });

  it.each([
    ['a short password', { email: 'p1@example.com', password: 'short1' }, 'password'],
    ['a common password', { email: 'p2@example.com', password: 'Password123' }, 'password'],
    ['an email longer than 255', { email: `${'a'.repeat(250)}@example.com`, password: GOOD_PASSWORD }, 'email'],
    ['a name longer than 100', { email: 'p3@example.com', password: GOOD_PASSWORD, name: 'n'.repeat(101) }, 'name'],
    ['a missing email', { password: GOOD_PASSWORD }, 'email'],
  ])('rejects a sign-up with %s (400 naming the field)', async (_label, body, field) => {
    const agent = await primed(app);
    const res = await agent.post('/api/auth/signup').send({ ...body, csrfToken: await csrfOf(agent) });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it.each(['https://evil.example/steal', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'http://tickerbell.test.evil.example/'])(
    'rejects the open redirect %s as callbackUrl',
    async (callbackUrl) => {
      const agent = request.agent(app);
      await signedInUser(harness, agent, `redirect-${Buffer.from(callbackUrl).toString('hex').slice(0, 12)}@example.com`);
      const signin = await agent
        .post('/api/auth/callback/credentials')
        .send({ email: 'x@example.com', password: 'whatever-it-is', csrfToken: await csrfOf(agent), callbackUrl, json: true });
      expect(signin.status).toBe(400);
      expect(signin.body.error.details[0].field).toBe('callbackUrl');
      const google = await agent.post('/api/auth/signin/google').send({ csrfToken: await csrfOf(agent), callbackUrl, json: true });
      expect(google.status).toBe(400);
      expect(JSON.stringify(signin.body) + JSON.stringify(google.body)).not.toContain('Location');
    },
  );

  it('sends signed-out visitors of a dashboard page to the sign-in page with SessionRequired and a callbackUrl', async () => {
    const res = await request(app).get('/dashboard/alerts?tab=1').set('Accept', 'text/html').expect(302);
    const location = new URL(res.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe(`${PUBLIC_URL}/sign-in`);
    expect(location.searchParams.get('error')).toBe('SessionRequired');
    expect(location.searchParams.get('callbackUrl')).toBe(`${PUBLIC_URL}/dashboard/alerts?tab=1`);
  });

  it('redirects an unknown provider to the sign-in page and the error endpoint to the client page with the code', async () => {
    const agent = request.agent(app);
    const unknown = await agent.post('/api/auth/signin/myspace').send({ csrfToken: await csrfOf(agent) }).expect(302);
    expect(unknown.headers.location).toBe(`${PUBLIC_URL}/sign-in`);
    const error = await agent.get('/api/auth/error?error=OAuthCallbackError').expect(302);
    expect(error.headers.location).toBe(`${PUBLIC_URL}/sign-in?error=OAuthCallbackError`);
  });

  it('lists only configured providers', async () => {
    const withGoogle = await request(app).get('/api/auth/providers').expect(200);
    expect(Object.keys(withGoogle.body).sort()).toEqual(['credentials', 'google']);
    const { GOOGLE_CLIENT_ID: _id, ...noGoogle } = harness.google.env();
    const unset = Object.fromEntries(Object.keys(noGoogle).map((key) => [key, ''])) as Record<string, string>;
    const without = await request(harness.app({ ...unset, GOOGLE_CLIENT_ID: '' })).get('/api/auth/providers').expect(200);
    expect(Object.keys(without.body)).toEqual(['credentials']);
  });

  it('resets a forgotten password end to end: email, single-use link, old password refused, other sessions ended', async () => {
    const email = 'forgetful@example.com';
    const first = request.agent(app);
    await signedInUser(harness, first, email);

    const anonymous = await primed(app);
    const asked = await anonymous.post('/api/auth/password/forgot').send({ email, csrfToken: await csrfOf(anonymous) });
    const unknown = await anonymous.post('/api/auth/password/forgot').send({ email: 'ghost@example.com', csrfToken: await csrfOf(anonymous) });
    expect(asked.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(asked.body);

    const mail = await harness.smtp.waitFor(email, /Reset your password/);
    const token = linkIn(mail, `${PUBLIC_URL}/reset-password`).searchParams.get('token');
    const newPassword = 'a brand new passphrase';
    await anonymous.post('/api/auth/password/reset').send({ token, password: newPassword, csrfToken: await csrfOf(anonymous) }).expect(200);
    const again = await anonymous.post('/api/auth/password/reset').send({ token, password: 'yet another passphrase', csrfToken: await csrfOf(anonymous) });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_token');

    expect((await first.get('/api/auth/session')).body).toEqual({});
    expect((await signIn(request.agent(app), email)).status).toBe(401);
    expect((await signIn(request.agent(app), email, newPassword)).status).toBe(200);
  });

  it('refuses an expired reset token', async () => {
    const email = 'expired-reset@example.com';
    await signedInUser(harness, request.agent(app), email);
    const agent = await primed(app);
    await agent.post('/api/auth/password/forgot').send({ email, csrfToken: await csrfOf(agent) }).expect(202);
    const mail = await harness.smtp.waitFor(email, /Reset your password/);
    await harness.db.dataSource.query(`UPDATE users SET reset_token_expiry = now() - interval '1 minute' WHERE email = $1`, [email]);
    const res = await agent
      .post('/api/auth/password/reset')
      .send({ token: linkIn(mail, `${PUBLIC_URL}/reset-password`).searchParams.get('token'), password: 'a brand new passphrase', csrfToken: await csrfOf(agent) });
    expect(res.status).toBe(400);
  });

  it('resends the verification email to an unverified account, and answers an unknown address the same way', async () => {
    await signUp(request.agent(app), 'slow-reader@example.com');
    const agent = await primed(app);
    const known = await agent.post('/api/auth/verify-email/resend').send({ email: 'slow-reader@example.com', csrfToken: await csrfOf(agent) });
    const unknown = await agent.post('/api/auth/verify-email/resend').send({ email: 'never-was@example.com', csrfToken: await csrfOf(agent) });
    expect(known.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    const mails = await harness.smtp.waitForCount('slow-reader@example.com', /Confirm your email/, 2);
    const links = mails.map((m) => linkIn(m, `${PUBLIC_URL}/api/auth/verify-email`));
    // Only the latest link works: the resend replaced the first token.
    expect((await request(app).get(local(links[0]))).headers.location).toBe(`${PUBLIC_URL}/sign-in?error=Verification`);
    expect((await request(app).get(local(links[1]))).headers.location).toBe(`${PUBLIC_URL}/sign-in?verified=1`);
  });

  it('marks the session cookie Secure when the request came over TLS through a trusted proxy', async () => {
    const behindProxy = request.agent(harness.app({ TRUST_PROXY: '1' }));
    const res = await behindProxy.get('/api/auth/csrf').set('X-Forwarded-Proto', 'https').expect(200);
    expect(setCookies(res).join(';')).toMatch(/tb\.sid=.*Secure/);
    const plain = await request(app).get('/api/auth/csrf').expect(200);
    expect(setCookies(plain).join(';')).not.toMatch(/Secure/);
  });

  it('logs a client _log call and rate-limits it', async () => {
    const limited = request(harness.app({ RATE_LIMIT_LOG_MAX: '2', RATE_LIMIT_PREFIX: `${harness.prefix}:rl-log` }));
    await limited.post('/api/auth/_log').type('form').send({ level: 'error', code: 'CLIENT_FETCH_ERROR' }).expect(200);
    await limited.post('/api/auth/_log').send({ level: 'warn', code: 'DEBUG_ENABLED' }).expect(200);
    const third = await limited.post('/api/auth/_log').send({ level: 'warn', code: 'DEBUG_ENABLED' });
    expect(third.status).toBe(429);
    const bad = await request(app).post('/api/auth/_log').send({ level: 'shout', code: 'X' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('level');
  });

  it('rate-limits sign-in attempts with 429 and Retry-After, across app instances sharing Redis', async () => {
    const env = { RATE_LIMIT_SIGNIN_MAX: '3', RATE_LIMIT_PREFIX: `${harness.prefix}:rl-signin` };
    const instances = [harness.app(env), harness.app(env)];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await signIn(request.agent(instances[i % 2]), 'brute@example.com', `guess number ${i}`)).status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    const blocked = await signIn(request.agent(instances[0]), 'brute@example.com', 'guess number 5');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('rate-limits sign-ups and password resets', async () => {
    const limited = harness.app({ RATE_LIMIT_SIGNUP_MAX: '1', RATE_LIMIT_RESET_MAX: '1', RATE_LIMIT_PREFIX: `${harness.prefix}:rl-other` });
    expect((await signUp(request.agent(limited), 'rl1@example.com')).status).toBe(201);
    expect((await signUp(request.agent(limited), 'rl2@example.com')).status).toBe(429);
    const agent = await primed(limited);
    await agent.post('/api/auth/password/forgot').send({ email: 'rl1@example.com', csrfToken: await csrfOf(agent) }).expect(202);
    const second = await agent.post('/api/auth/password/forgot').send({ email: 'rl1@example.com', csrfToken: await csrfOf(agent) });
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBeDefined();
  });
});

import request from 'supertest';
import { clientNetwork } from '../../src/accounts/rate-limit';
import { AccountsHarness, GOOD_PASSWORD, signedInUser } from '../support/accounts-harness';

const WRONG = 'not the password at all';

/**
 * Sign-in limits (issue 12, defect 6): failed sign-ins are limited per client and account and per
 * client across accounts (spraying), never per account alone, so an attacker cannot lock the owner
 * out. Clients are told apart by X-Forwarded-For behind one trusted proxy hop.
 */
describe('accounts: sign-in limits per client and account and per client (real Express, Redis)', () => {
  const harness = new AccountsHarness();
  let owner: string;

  beforeAll(async () => {
    await harness.start();
    owner = 'owner@example.com';
    await signedInUser(harness, request.agent(harness.app()), owner);
  });
  afterAll(() => harness.stop());

  /** An app whose limits live under a Redis prefix of this test only. */
  const limitedApp = (name: string, limits: { perAccount?: number; perClient?: number }) =>
    harness.app({
      TRUST_PROXY: '1',
      RATE_LIMIT_PREFIX: `${harness.prefix}:rl-${name}`,
      RATE_LIMIT_SIGNIN_MAX: String(limits.perAccount ?? 1000),
      RATE_LIMIT_SIGNIN_IP_MAX: String(limits.perClient ?? 1000),
    });

  type App = ReturnType<AccountsHarness['app']>;

  /** Fetches a CSRF token as `ip`, then returns the sign-in request (not yet sent). */
  async function prepare(app: App, ip: string, email: string, password: string, extra: Record<string, unknown> = {}) {
    const agent = request.agent(app);
    const csrf = await agent.get('/api/auth/csrf').set('X-Forwarded-For', ip).expect(200);
    return () =>
      agent
        .post('/api/auth/callback/credentials')
        .set('X-Forwarded-For', ip)
        .send({ email, password, csrfToken: csrf.body.csrfToken, callbackUrl: '/dashboard', json: true, ...extra });
  }

  const signInFrom = async (app: App, ip: string, email: string, password = WRONG) => (await prepare(app, ip, email, password))();

  const statuses = async (attempts: (() => Promise<{ status: number }>)[]) => {
    const out: number[] = [];
    for (const attempt of attempts) out.push((await attempt()).status);
    return out;
  };

  it('stops password spraying: one IP trying many emails gets 429 with Retry-After after RATE_LIMIT_SIGNIN_IP_MAX failures, across instances', async () => {
    const instances = [limitedApp('spray', { perAccount: 3, perClient: 5 }), limitedApp('spray', { perAccount: 3, perClient: 5 })];
    const attacker = '203.0.113.7';
    const tried = await statuses(Array.from({ length: 5 }, (_, i) => () => signInFrom(instances[i % 2], attacker, `victim-${i}@example.com`)));
    expect(tried).toEqual([401, 401, 401, 401, 401]);

    const blocked = await signInFrom(instances[0], attacker, 'victim-5@example.com');
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(blocked.body.error).toMatchObject({ code: 'rate_limited', details: { retryAfterSeconds: retryAfter } });
    expect(typeof blocked.body.error.requestId).toBe('string');
    // The spraying client is refused whatever it sends, a real account's password included...
    expect((await signInFrom(instances[1], attacker, owner, GOOD_PASSWORD)).status).toBe(429);
    // ...and only that client: another address is answered as usual.
    expect((await signInFrom(instances[1], '203.0.113.8', 'victim-6@example.com')).status).toBe(401);
    expect((await signInFrom(instances[0], '203.0.113.8', owner, GOOD_PASSWORD)).status).toBe(200);
  });

  it("never locks the owner out: an attacker's failures from another IP do not refuse the right password", async () => {
    const app = limitedApp('owner', { perAccount: 3 });
    const attacker = '198.51.100.7';
    expect(await statuses([1, 2, 3].map(() => () => signInFrom(app, attacker, owner)))).toEqual([401, 401, 401]);
    // The per-client-and-account limit still holds for the attacker, for a while only.
    const refused = await signInFrom(app, attacker, owner, GOOD_PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(900);

    const signedIn = await signInFrom(app, '192.0.2.44', owner, GOOD_PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ url: expect.stringMatching(/\/dashboard$/) });
  });

  it("resets a client's failures on an account when the right password comes, so an owner's typos do not add up", async () => {
    const app = limitedApp('typos', { perAccount: 3 });
    const home = '192.0.2.55';
    const sequence = [WRONG, WRONG, GOOD_PASSWORD, WRONG, WRONG, WRONG].map((password) => () => signInFrom(app, home, owner, password));
    expect(await statuses(sequence)).toEqual([401, 401, 200, 401, 401, 401]);
    expect((await signInFrom(app, home, owner, GOOD_PASSWORD)).status).toBe(429);
  });

  it('does not count successful sign-ins against the per-IP budget (many users behind one address)', async () => {
    const app = limitedApp('office', { perClient: 2 });
    const office = '192.0.2.99';
    const attempts = [GOOD_PASSWORD, GOOD_PASSWORD, GOOD_PASSWORD, GOOD_PASSWORD, WRONG, WRONG, WRONG].map(
      (password) => () => signInFrom(app, office, owner, password),
    );
    expect(await statuses(attempts)).toEqual([200, 200, 200, 200, 401, 401, 429]);
  });

  it('counts only requests that check a password: csrf and input errors leave the budget alone', async () => {
    const app = limitedApp('malformed', { perClient: 2, perAccount: 2 });
    const ip = '192.0.2.123';
    const badInput = await prepare(app, ip, owner, WRONG, { callbackUrl: 'https://evil.example/' });
    const noCsrf = await prepare(app, ip, owner, WRONG, { csrfToken: 'forged' });
    expect(await statuses([badInput, badInput, badInput, noCsrf, noCsrf, noCsrf])).toEqual([400, 400, 400, 403, 403, 403]);
    expect(await statuses([1, 2, 3].map((i) => () => signInFrom(app, ip, `someone-${i}@example.com`)))).toEqual([401, 401, 429]);
  });

  it('takes the point before checking the password, so concurrent attempts cannot overrun the budget', async () => {
    const app = limitedApp('parallel', { perClient: 4 });
    const ready = await Promise.all(Array.from({ length: 10 }, (_, i) => prepare(app, '198.51.100.200', `parallel-${i}@example.com`, WRONG)));
    const answers = (await Promise.all(ready.map((send) => send()))).map((res) => res.status).sort();
    expect(answers).toEqual([401, 401, 401, 401, 429, 429, 429, 429, 429, 429]);
  });

  it('counts an IPv6 client by its /64', async () => {
    const app = limitedApp('ipv6', { perClient: 2 });
    const sameNetwork = ['2001:db8:1:2::10', '2001:db8:1:2:ffff::1', '2001:DB8:1:2:0:0:0:abcd'];
    const tried = await statuses(sameNetwork.map((ip, i) => () => signInFrom(app, ip, `v6-${i}@example.com`)));
    expect(tried).toEqual([401, 401, 429]);
    expect((await signInFrom(app, '2001:db8:1:3::10', 'v6-other@example.com')).status).toBe(401);

    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('2001:db8:1:2:3:4:192.0.2.1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('unknown')).toBe('unknown');
  });
});

import http from 'node:http';
import { upsertCompanies } from '@tickerbell/jobs/insiders';
import { billingJobIds } from '@tickerbell/jobs/billing';
import { PUBLIC_URL } from '../support/accounts-harness';
import { AlertsHarness } from '../support/alerts-support';
import { quickUser, type SignedIn } from '../support/route-requests';
import { linkIn } from '../support/smtp-capture';

const BOT = { TELEGRAM_BOT_TOKEN: '123456789:AAReplayTokenForTestsOnly_abcdefghij', TELEGRAM_BOT_USERNAME: 'TickerbellTestBot' };
const WALLETS = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000a2'];

/**
 * Each domain's limit asks the entitlements (issue 19), through the real app, PostgreSQL and Redis.
 * `limited`: billing off, and the operator's self-hosted plan allows ONE of everything and two
 * seats (BILLING_SELF_HOSTED_LIMITS, a real configuration: the cheapest way to a small limit).
 * `billed`: billing on (the Stripe keys set; nothing calls Stripe), teams' billing state written in
 * the database as billing's job leaves it: read-only accounts (402) and plan features.
 */
describe('entitlements of every domain (real app, PostgreSQL, Redis)', () => {
  const harness = new AlertsHarness();
  const servers: http.Server[] = [];
  let limited: http.Server;
  let billed: http.Server;
  let poolId: number;
  let n = 0;

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => harness.db.dataSource.query(sql, params);
  const userOn = (server: http.Server, name: string) => quickUser(harness.db.dataSource, server, `${name}-${++n}@example.com`);
  const send = (who: SignedIn, method: 'post' | 'put' | 'patch', path: string, body: object = {}) => who.agent[method](path).set('x-csrf-token', who.csrf).send(body);

  async function listen(env: Record<string, string>): Promise<http.Server> {
    const server = http.createServer(harness.app(env));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return server;
  }

  async function setBilling(userId: number, planName: string | null, status: string | null): Promise<void> {
    await q('UPDATE teams SET plan_name = $2, subscription_status = $3 WHERE id IN (SELECT team_id FROM team_members WHERE user_id = $1)', [userId, planName, status]);
  }

  /** The refusal of a small self-hosted limit: 403 naming the limit, the plan and who raises it. */
  const selfHostedLimit = (limit: string) => ({
    code: 'plan_limit',
    message: expect.stringMatching(/^Your Self-hosted plan allows 1 .+ \(you have 1\): remove one, or the operator of this install sets the limits$/),
    details: { plan: 'self-hosted', limit, max: 1, used: 1, upgradeUrl: '/contact' },
    requestId: expect.any(String),
  });

  beforeAll(async () => {
    await harness.start();
    limited = await listen({ BILLING_SELF_HOSTED_LIMITS: 'watchlists=1,whaleWatches=1,yieldAlerts=1,lockupFollows=1,insiderFollows=1,seats=2', ...BOT });
    billed = await listen({ STRIPE_SECRET_KEY: 'sk_test_entitlements', STRIPE_WEBHOOK_SECRET: 'whsec_entitlements', STRIPE_API_URL: 'http://127.0.0.1:9', ...BOT });
    // A yield pool to set alerts on, and two companies to follow.
    const [pool] = await q<{ id: number }>(
      `INSERT INTO yield_pools (pool_id, defillama_pool_id, symbol, token0, token1, token0_symbol, token1_symbol, fee_tier, dex, project, chain,
         underlying_tokens, stablecoin, il_risk, exposure, tracked, tvl_usd, apy, last_seen_at, is_active)
       VALUES ('00000000-0000-4000-8000-00000000e001', '00000000-0000-4000-8000-00000000e001', 'WETH-USDC', '', '', 'WETH', 'USDC', 500,
         'uniswap-v3', 'uniswap-v3', 'Ethereum', '[]', false, 'no', 'multi', false, 1000000, 5, now(), true) RETURNING id`,
    );
    poolId = pool.id;
    await upsertCompanies(harness.db.dataSource, [
      { cik: '0001318605', ticker: 'TSLA', name: 'Tesla, Inc.' },
      { cik: '0001327811', ticker: 'WDAY', name: 'Workday, Inc.' },
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await harness.stop();
  });

  it('watchlists: the plan limit (also for an import); adding symbols is not limited by it', async () => {
    const ann = await userOn(limited, 'ann');
    const list = (await send(ann, 'post', '/api/watchlists', { name: 'Tech' }).expect(201)).body;
    expect((await send(ann, 'post', '/api/watchlists', { name: 'More' }).expect(403)).body.error).toEqual(selfHostedLimit('watchlists'));
    expect((await send(ann, 'post', '/api/watchlists/import', { name: 'Imported', csv: 'AAPL\n' }).expect(403)).body.error.details.limit).toBe('watchlists');
    await send(ann, 'post', `/api/watchlists/${list.id}/items`, { symbol: 'AAPL' }).expect(201);
  });

  it('whales: watched addresses, with the limit in the watchlist answer', async () => {
    const ann = await userOn(limited, 'ann');
    await send(ann, 'post', '/api/whales/watchlist', { address: WALLETS[0] }).expect(201);
    expect((await send(ann, 'post', '/api/whales/watchlist', { address: WALLETS[1] }).expect(403)).body.error).toEqual(selfHostedLimit('whaleWatches'));
    expect((await ann.agent.get('/api/whales/watchlist').expect(200)).body.limit).toBe(1);
    // Billing on: the limit of the plan of the user's team.
    const ben = await userOn(billed, 'ben');
    await setBilling(ben.id, 'team', 'active');
    expect((await ben.agent.get('/api/whales/watchlist').expect(200)).body.limit).toBe(500);
  });

  it('yields: yield alerts', async () => {
    const ann = await userOn(limited, 'ann');
    await send(ann, 'post', '/api/yields/alerts', { poolId, alertType: 'apr', threshold: 10 }).expect(201);
    expect((await send(ann, 'post', '/api/yields/alerts', { poolId, alertType: 'apr', threshold: 20 }).expect(403)).body.error).toEqual(selfHostedLimit('yieldAlerts'));
  });

  it('lockups: follows; following a ticker again is still a 409', async () => {
    const ann = await userOn(limited, 'ann');
    await send(ann, 'post', '/api/lockups/follows', { kind: 'ticker', ticker: 'ACME' }).expect(201);
    expect((await send(ann, 'post', '/api/lockups/follows', { kind: 'ticker', ticker: 'BETA' }).expect(403)).body.error).toEqual(selfHostedLimit('lockupFollows'));
    expect((await send(ann, 'post', '/api/lockups/follows', { kind: 'ticker', ticker: 'ACME' }).expect(409)).body.error.code).toBe('follow_exists');
    // Two concurrent follows at limit - 1 on a fresh account: exactly one passes.
    const cy = await userOn(limited, 'cy');
    const both = await Promise.all(['ONE', 'TWO'].map((ticker) => send(cy, 'post', '/api/lockups/follows', { kind: 'ticker', ticker })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 403]);
  });

  it('insiders: a new follow counts, changing a followed company’s settings does not', async () => {
    const ann = await userOn(limited, 'ann');
    await send(ann, 'put', '/api/insiders/follows/TSLA').expect(200);
    expect((await send(ann, 'put', '/api/insiders/follows/WDAY').expect(403)).body.error).toEqual(selfHostedLimit('insiderFollows'));
    await send(ann, 'put', '/api/insiders/follows/TSLA', { notifyClusterBuy: false }).expect(200);
  });

  // Prediction forecasts are not tracked items (a one-off entry, scored, never watched): not refused.
  it('read-only accounts (unpaid) answer 402 on every route that creates a tracked item; reads and settings still work', async () => {
    const dee = await userOn(billed, 'dee');
    await setBilling(dee.id, 'pro', 'active');
    const list = (await send(dee, 'post', '/api/watchlists', { name: 'Before' }).expect(201)).body;
    await send(dee, 'put', '/api/insiders/follows/TSLA').expect(200);

    await setBilling(dee.id, 'pro', 'unpaid');
    const answers = await Promise.all([
      send(dee, 'post', '/api/alerts', { name: 'x', symbol: 'AAPL', condition: { type: 'greater_than', value: '100' } }),
      send(dee, 'post', '/api/watchlists', { name: 'After' }),
      send(dee, 'post', '/api/watchlists/import', { name: 'Imported', csv: 'AAPL\n' }),
      send(dee, 'post', `/api/watchlists/${list.id}/items`, { symbol: 'AAPL' }),
      send(dee, 'post', `/api/watchlists/${list.id}/import`, { csv: 'MSFT\n' }),
      send(dee, 'post', '/api/whales/watchlist', { address: WALLETS[0] }),
      send(dee, 'post', '/api/yields/alerts', { poolId, alertType: 'apr', threshold: 10 }),
      send(dee, 'post', '/api/lockups/follows', { kind: 'ticker', ticker: 'ACME' }),
      send(dee, 'put', '/api/insiders/follows/WDAY'),
      send(dee, 'post', '/api/predictions/follows', { marketId: 1 }),
      send(dee, 'put', '/api/cot/instruments/088691/follow'),
    ]);
    expect(answers.map((r) => [r.status, r.body.error?.code])).toEqual(Array(answers.length).fill([402, 'read_only']));
    expect(answers[0].body.error.message).toMatch(/^Your Pro subscription is unpaid: the account is read-only/);

    await dee.agent.get('/api/watchlists').expect(200);
    await send(dee, 'patch', `/api/watchlists/${list.id}`, { name: 'Renamed' }).expect(200);
    await send(dee, 'put', '/api/insiders/follows/TSLA', { notifyClusterBuy: false }).expect(200);
  });

  it('Telegram linking needs a plan with Telegram: 403 feature_off on free, a code on pro', async () => {
    const eve = await userOn(billed, 'eve');
    const refused = await send(eve, 'post', '/api/notifications/telegram/code').expect(403);
    expect(refused.body.error).toMatchObject({
      code: 'feature_off',
      message: 'The Free plan does not include Telegram delivery: upgrade on the pricing page',
      details: { plan: 'free', feature: 'telegram', upgradeUrl: '/pricing' },
    });
    await setBilling(eve.id, 'pro', 'trialing');
    await send(eve, 'post', '/api/notifications/telegram/code').expect(201);
  });

  /** Invites `count` addresses to the owner's team; answers their accept tokens (from the real emails). */
  async function invite(owner: SignedIn, teamId: number, emails: string[]): Promise<string[]> {
    const tokens: string[] = [];
    for (const email of emails) {
      await send(owner, 'post', `/api/teams/${teamId}/invitations`, { email }).expect(201);
      const mail = await harness.smtp.waitFor(email, /You are invited/);
      tokens.push(linkIn(mail, `${PUBLIC_URL}/invitations/accept`).searchParams.get('token')!);
    }
    return tokens;
  }
  const teamOf = async (userId: number) => (await q<{ team_id: number }>('SELECT team_id FROM team_members WHERE user_id = $1', [userId]))[0].team_id;

  it('seats: two invitees accepting the last seat at once, exactly one joins; the other gets 403 naming the seats', async () => {
    const owner = await userOn(limited, 'owner');
    const teamId = await teamOf(owner.id);
    const invitees = [await userOn(limited, 'fay'), await userOn(limited, 'gus')];
    const tokens = await invite(owner, teamId, [invitees[0].email, invitees[1].email]);

    const answers = await Promise.all(invitees.map((who, i) => send(who, 'post', '/api/invitations/accept', { token: tokens[i] })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 403]);
    const refused = answers.find((r) => r.status === 403)!;
    expect(refused.body.error).toMatchObject({
      code: 'plan_limit',
      message: 'Your Self-hosted plan allows 2 team seats (you have 2): remove one, or the operator of this install sets the limits',
      details: { plan: 'self-hosted', limit: 'seats', max: 2, used: 2 },
    });
    const [{ members }] = await q<{ members: number }>('SELECT count(*)::int AS members FROM team_members WHERE team_id = $1', [teamId]);
    expect(members).toBe(2);
    // The refused invitation stays pending: it can be accepted once a seat is free.
    const loser = invitees[answers.indexOf(refused)];
    const [{ status }] = await q<{ status: string }>('SELECT status FROM invitations WHERE team_id = $1 AND email = $2', [teamId, loser.email]);
    expect(status).toBe('pending');
  });

  it('seats: with billing on, a member joining or leaving requests the seat sync of the team’s subscription', async () => {
    const owner = await userOn(billed, 'owner');
    const teamId = await teamOf(owner.id);
    await setBilling(owner.id, 'team', 'active');
    const hal = await userOn(billed, 'hal');
    const [token] = await invite(owner, teamId, [hal.email]);
    await send(hal, 'post', '/api/invitations/accept', { token }).expect(200);
    const queue = harness.queues.queue('billing');
    expect(await queue.getJob(billingJobIds.syncSeats(teamId, 2, new Date()))).toBeDefined();
    await hal.agent.delete(`/api/teams/${teamId}/members/${hal.id}`).set('x-csrf-token', hal.csrf).expect(204);
    expect(await queue.getJob(billingJobIds.syncSeats(teamId, 1, new Date()))).toBeDefined();
  });
});

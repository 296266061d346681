import type { DataSource } from 'typeorm';
import { ACTIVITY_ACTIONS, ActivityLog, Team, TeamMember, User, UserPreferences } from '../src/accounts';
import { Alert } from '../src/alerts';
import { ChartLayout, Market, Watchlist, WatchlistItem } from '../src/markets';
import { Notification } from '../src/notifications';
import { PredictionMarket, UserPrediction } from '../src/predictions';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database';
import { WhaleTransaction } from '../src/whales';
import { openQuietDataSource } from './support';

// Behaviour the schema guarantees, exercised through the entities as the api and workers use them.
describe('schema behaviour', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await openQuietDataSource(db.url);
  });

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await db?.drop();
  });

  const uniqueViolation = (constraint: string) => ({ code: '23505', constraint });

  async function createUser(email = `user${++seq}@example.com`): Promise<User> {
    return ds.getRepository(User).save(ds.getRepository(User).create({ email }));
  }

  async function createMarket(): Promise<Market> {
    const n = ++seq;
    return ds.getRepository(Market).save({ name: `Market ${n}`, symbol: `SYM${n}`, type: 'stock' });
  }

  describe('users', () => {
    it('fills the spec defaults of a new user', async () => {
      const user = await createUser();
      const loaded = await ds.getRepository(User).findOneByOrFail({ id: user.id });
      expect(loaded).toMatchObject({ role: 'member', isVerified: false, subscriptionStatus: 'inactive', deletedAt: null });
    });

    it('frees the email of a soft-deleted user for a new account', async () => {
      const users = ds.getRepository(User);
      const first = await createUser('Reuse@Example.com');
      await expect(users.insert({ email: 'reuse@example.com' })).rejects.toMatchObject(
        uniqueViolation('uq_users_email_active'),
      );

      await users.softDelete(first.id);
      const second = await createUser('reuse@example.com');

      expect(second.id).not.toBe(first.id);
      expect(await users.findOneBy({ id: first.id })).toBeNull();
      expect(await users.findOne({ where: { id: first.id }, withDeleted: true })).toMatchObject({
        email: 'Reuse@Example.com',
      });
      // Only live users count: the re-used address is taken again.
      await expect(users.insert({ email: 'REUSE@example.com' })).rejects.toMatchObject(
        uniqueViolation('uq_users_email_active'),
      );
    });

    it('rejects a role outside member and admin', async () => {
      await expect(ds.getRepository(User).insert({ email: 'root@example.com', role: 'root' as 'admin' })).rejects.toMatchObject({
        code: '23514',
        constraint: 'chk_users_role',
      });
    });
  });

  describe('deleting a user', () => {
    it('removes their alerts, watchlists, layouts, preferences, memberships, notifications and sessions but keeps activity logs', async () => {
      const user = await createUser();
      const other = await createUser();
      const market = await createMarket();
      const team = await ds.getRepository(Team).save({ name: 'Desk' });
      await ds.getRepository(TeamMember).save([
        { teamId: team.id, userId: user.id, role: 'owner' as const },
        { teamId: team.id, userId: other.id },
      ]);
      const alert = await ds
        .getRepository(Alert)
        .save({ userId: user.id, marketId: market.id, name: 'AAPL > 200', condition: 'above', value: '200' });
      const watchlist = await ds.getRepository(Watchlist).save({ userId: user.id, name: 'Tech' });
      await ds.getRepository(WatchlistItem).save({ watchlistId: watchlist.id, marketId: market.id });
      await ds.getRepository(UserPreferences).save({ userId: user.id });
      await ds.getRepository(ChartLayout).save({ userId: user.id, name: 'Main', layout: { panes: 2 } });
      await ds.getRepository(Notification).save({ userId: user.id, title: 'NYSE open', message: 'now open' });
      await ds.query(`INSERT INTO sessions (sid, sess, expire, user_id) VALUES ('s1', '{}', now(), $1)`, [user.id]);
      const log = await ds.getRepository(ActivityLog).save({ teamId: team.id, userId: user.id, action: 'SIGN_IN' as const });

      await ds.getRepository(User).delete(user.id);

      const count = async (table: string) =>
        Number((await ds.query(`SELECT count(*) AS n FROM ${table} WHERE user_id = $1`, [user.id]))[0].n);
      for (const table of ['alerts', 'watchlists', 'chart_layouts', 'user_preferences', 'team_members', 'notifications', 'sessions']) {
        expect({ table, rows: await count(table) }).toEqual({ table, rows: 0 });
      }
      expect(await ds.getRepository(WatchlistItem).countBy({ watchlistId: watchlist.id })).toBe(0);
      expect(await ds.getRepository(Alert).countBy({ id: alert.id })).toBe(0);
      expect(await ds.getRepository(ActivityLog).findOneByOrFail({ id: log.id })).toMatchObject({
        userId: null,
        teamId: team.id,
        action: 'SIGN_IN',
      });
      // Other members and shared reference data are untouched.
      expect(await ds.getRepository(TeamMember).countBy({ teamId: team.id })).toBe(1);
      expect(await ds.getRepository(Market).countBy({ id: market.id })).toBe(1);
    });
  });

  describe('reference data', () => {
    it('cannot delete a market that an alert still uses', async () => {
      const user = await createUser();
      const market = await createMarket();
      await ds.getRepository(Alert).save({ userId: user.id, marketId: market.id, name: 'x', condition: 'below', value: '1' });
      await expect(ds.getRepository(Market).delete(market.id)).rejects.toMatchObject({ code: '23503' });
    });
  });

  describe('chart layouts', () => {
    it('allow at most one default layout per user', async () => {
      const layouts = ds.getRepository(ChartLayout);
      const user = await createUser();
      const other = await createUser();
      const first = await layouts.save({ userId: user.id, name: 'Day', layout: {}, isDefault: true });
      await layouts.save({ userId: user.id, name: 'Swing', layout: {} });
      await layouts.save({ userId: user.id, name: 'Scalp', layout: {} });
      await layouts.save({ userId: other.id, name: 'Theirs', layout: {}, isDefault: true });

      await expect(layouts.insert({ userId: user.id, name: 'Week', layout: {}, isDefault: true })).rejects.toMatchObject(
        uniqueViolation('uq_chart_layouts_default_per_user'),
      );

      // Moving the default in one transaction works.
      const week = await layouts.save({ userId: user.id, name: 'Week', layout: {} });
      await ds.transaction(async (tx) => {
        await tx.getRepository(ChartLayout).update({ id: first.id }, { isDefault: false });
        await tx.getRepository(ChartLayout).update({ id: week.id }, { isDefault: true });
      });
      expect(await layouts.findBy({ userId: user.id, isDefault: true })).toEqual([
        expect.objectContaining({ id: week.id, name: 'Week' }),
      ]);
    });
  });

  describe('watchlists', () => {
    it('hold a market at most once per list, and the same market in another list', async () => {
      const user = await createUser();
      const market = await createMarket();
      const [tech, swing] = await ds.getRepository(Watchlist).save([
        { userId: user.id, name: 'Tech' },
        { userId: user.id, name: 'Swing' },
      ]);
      const items = ds.getRepository(WatchlistItem);
      await items.save({ watchlistId: tech.id, marketId: market.id, order: 0 });

      await expect(items.insert({ watchlistId: tech.id, marketId: market.id, order: 1 })).rejects.toMatchObject(
        uniqueViolation('uq_watchlist_items_watchlist_market'),
      );
      await items.save({ watchlistId: swing.id, marketId: market.id, order: 0 });
      expect(await items.countBy({ marketId: market.id })).toBe(2);
    });
  });

  describe('activity logs', () => {
    it('accept every action kind of the spec and nothing else', async () => {
      const logs = ds.getRepository(ActivityLog);
      await logs.save(ACTIVITY_ACTIONS.map((action) => ({ action })));
      expect(await logs.countBy({})).toBeGreaterThanOrEqual(ACTIVITY_ACTIONS.length);
      await expect(logs.insert({ action: 'HACK_THE_PLANET' as 'SIGN_IN' })).rejects.toMatchObject({
        code: '23514',
        constraint: 'chk_activity_logs_action',
      });
    });
  });

  describe('notifications', () => {
    it('keep one notification per user and dedupe key, while notifications without a key never collide', async () => {
      const notifications = ds.getRepository(Notification);
      const user = await createUser();
      const other = await createUser();
      const key = 'market-open:XNYS:2025-01-02';
      await notifications.save({ userId: user.id, title: 'NYSE', message: 'now open', type: 'success', dedupeKey: key });

      await expect(
        notifications.insert({ userId: user.id, title: 'NYSE', message: 'now open', dedupeKey: key }),
      ).rejects.toMatchObject(uniqueViolation('uq_notifications_user_dedupe_key'));
      await notifications.save({ userId: other.id, title: 'NYSE', message: 'now open', dedupeKey: key });
      await notifications.save([
        { userId: user.id, title: 'a', message: 'a' },
        { userId: user.id, title: 'b', message: 'b' },
      ]);
      expect(await notifications.countBy({ userId: user.id })).toBe(3);
    });

    it('reject a type outside info, success, warning and error', async () => {
      const user = await createUser();
      await expect(
        ds.getRepository(Notification).insert({ userId: user.id, title: 't', message: 'm', type: 'fatal' as 'error' }),
      ).rejects.toMatchObject({ code: '23514', constraint: 'chk_notifications_type' });
    });
  });

  describe('exact numbers', () => {
    it('round-trip probabilities, wei amounts and bigint ids as exact strings', async () => {
      const user = await createUser();
      const market = await ds.getRepository(PredictionMarket).save({ polymarketId: `pm-${++seq}`, question: 'Q?', slug: 'q', contentHash: 'h', dataSource: 'import', syncedAt: new Date() });
      const prediction = await ds
        .getRepository(UserPrediction)
        .save({ userId: user.id, marketId: market.id, userPrediction: '0.6150', marketPrice: '0.0001', inputForm: 'probability', inputText: '0.615', dateMade: new Date() });
      expect(await ds.getRepository(UserPrediction).findOneByOrFail({ id: prediction.id })).toMatchObject({
        userPrediction: '0.6150',
        marketPrice: '0.0001',
      });

      const wei = '123456789012345678901234567890123456789';
      const tx = await ds.getRepository(WhaleTransaction).save({
        hash: '0x' + 'cd'.repeat(32),
        fromAddress: '0x' + '1'.repeat(40),
        value: wei,
        blockNumber: '19000000',
        blockHash: '0x' + 'ef'.repeat(32),
        timestamp: new Date('2025-01-02T14:30:00Z'),
      });
      expect(typeof tx.id).toBe('string');
      expect(await ds.getRepository(WhaleTransaction).findOneByOrFail({ id: tx.id })).toMatchObject({
        value: wei,
        blockNumber: '19000000',
        tokenSymbol: 'ETH',
      });
    });
  });

  describe('sessions', () => {
    it('accept the upsert connect-pg-simple issues', async () => {
      const upsert = (sess: object, expireSeconds: number) =>
        ds.query(
          `INSERT INTO "sessions" (sess, expire, sid) SELECT $1, to_timestamp($2), $3
           ON CONFLICT (sid) DO UPDATE SET sess=$1, expire=to_timestamp($2) RETURNING sid`,
          [JSON.stringify(sess), expireSeconds, 'sid-pg-simple'],
        );
      await upsert({ cookie: {} }, 1_900_000_000);
      await upsert({ cookie: {}, passport: { user: 1 } }, 1_900_000_100);
      const rows = await ds.query(`SELECT sess FROM "sessions" WHERE sid = 'sid-pg-simple'`);
      expect(rows).toEqual([{ sess: { cookie: {}, passport: { user: 1 } } }]);
    });
  });
});

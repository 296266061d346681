import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { createUser, deleteUser } from '../../src/accounts/accounts.store';
import { USER_OWNED_COLUMNS } from '../../src/accounts/user-owned';

/**
 * Issue 21, defect 1: deleting an account removes everything the user owns. The registry
 * (USER_OWNED_COLUMNS) must name every column that references a user, in the migrated schema as it
 * is today and as later domains grow it; each 'delete' one is emptied of the user's rows by
 * deleteUser, in its transaction. Real PostgreSQL.
 */
describe('accounts: every user-owned table goes with a deleted account', () => {
  let db: TestDatabase;
  const NOW = new Date('2026-11-21T12:00:00Z');
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => db.dataSource.query(sql, params);
  const key = (table: string, column: string) => `${table}.${column}`;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('names every column that references users (foreign keys, user_id and *_user_id), and no column that does not exist', async () => {
    const referencing = await q<{ table: string; column: string }>(
      `SELECT c.conrelid::regclass::text AS table, a.attname AS column
         FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
        WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass
       UNION
       SELECT c.table_name, c.column_name
         FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND (c.column_name = 'user_id' OR c.column_name LIKE '%\\_user\\_id')`,
    );
    expect(referencing.length).toBeGreaterThan(20);
    const registered = new Set(USER_OWNED_COLUMNS.map((c) => key(c.table, c.column)));
    // A new domain's table with a user reference: add it to jobs/src/accounts/user-owned.ts ('delete' or 'keep: why').
    expect(referencing.map((r) => key(r.table, r.column)).filter((k) => !registered.has(k)).sort()).toEqual([]);

    const columns = new Set(
      (await q<{ k: string }>(`SELECT table_name || '.' || column_name AS k FROM information_schema.columns WHERE table_schema = 'public'`)).map((r) => r.k),
    );
    expect([...registered].filter((k) => !columns.has(k))).toEqual([]);
    expect(registered.size).toBe(USER_OWNED_COLUMNS.length);
  });

  it("deletes every 'delete' row of the user in the soft delete's transaction, and leaves other users' rows alone", async () => {
    // What the fixtures hang off: one shared row of each parent table.
    const [{ id: marketId }] = await q<{ id: number }>(`INSERT INTO markets (symbol, name, type) VALUES ('BTCUSDT', 'Bitcoin', 'crypto') RETURNING id`);
    await q(`INSERT INTO exchanges (id, name, location, timezone, open_time, close_time, weekdays) VALUES ('XTST', 'Test', 'Nowhere', 'UTC', '09:00', '17:00', '{1,2,3,4,5}')`);
    const [{ id: instrumentId }] = await q<{ id: number }>(`INSERT INTO cot_instruments (cftc_code, instrument_name) VALUES ('999999', 'Test') RETURNING id`);
    const [{ id: insiderCompanyId }] = await q<{ id: number }>(`INSERT INTO insider_trading_companies (ticker, company_name, cik) VALUES ('TEST', 'Test Inc.', '0000999999') RETURNING id`);
    const [{ id: roomId }] = await q<{ id: number }>(`INSERT INTO chat_rooms (name) VALUES ('Lobby') RETURNING id`);
    const [{ id: messageId }] = await q<{ id: string }>(`INSERT INTO chat_messages (room_id, message) VALUES ($1, 'Welcome') RETURNING id`, [roomId]);
    const [{ id: predictionMarketId }] = await q<{ id: number }>(`INSERT INTO prediction_markets (polymarket_id, slug, question, content_hash, data_source, synced_at) VALUES ('pm-1', 'will-it', 'Will it?', 'h', 'import', now()) RETURNING id`);
    const [{ id: whaleAddressId }] = await q<{ id: number }>(`INSERT INTO whale_addresses (address) VALUES ('0xabc') RETURNING id`);
    const [{ id: poolId }] = await q<{ id: number }>(
      `INSERT INTO yield_pools (pool_id, symbol, token0, token1, token0_symbol, token1_symbol, fee_tier) VALUES ('pool-1', 'A/B', '0xa', '0xb', 'A', 'B', 3000) RETURNING id`,
    );
    const [{ id: sharedTeamId }] = await q<{ id: number }>(`INSERT INTO teams (name) VALUES ('Shared desk') RETURNING id`);
    const [{ id: lockupEventId }] = await q<{ id: number }>(
      `INSERT INTO lockup_events (ticker, company_name, ipo_date, lockup_expiration_date, offering_key) VALUES ('TEST', 'Test Inc.', '2025-01-02', '2025-07-01', 'csv:TEST:2025-01-02') RETURNING id`,
    );

    /** One row of each registered table for a user (through the user's own parents where a table hangs off another). */
    const FIXTURES: Record<string, (userId: number) => Promise<unknown>> = {
      'accounts.user_id': (u) => q(`INSERT INTO accounts (user_id, provider, provider_account_id, type) VALUES ($1, 'google', $2, 'oauth')`, [u, `g-${u}`]),
      'sessions.user_id': (u) => q(`INSERT INTO sessions (sid, sess, expire, user_id) VALUES ($1, '{}', now() + interval '1 day', $2)`, [`sid-${u}`, u]),
      // createUser wrote the defaults already.
      'user_preferences.user_id': (u) => q(`INSERT INTO user_preferences (user_id) VALUES ($1) ON CONFLICT DO NOTHING`, [u]),
      'team_members.user_id': (u) => q(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'member')`, [sharedTeamId, u]),
      'activity_logs.user_id': (u) => q(`INSERT INTO activity_logs (team_id, user_id, action) VALUES (NULL, $1, 'SIGN_IN')`, [u]),
      'invitations.invited_by': (u) => q(`INSERT INTO invitations (team_id, email, invited_by) VALUES ($1, $2, $3)`, [sharedTeamId, `guest-${u}@example.com`, u]),
      'alerts.user_id': async (u) => {
        const [{ id }] = await q<{ id: number }>(
          `INSERT INTO alerts (user_id, market_id, name, condition, value, params) VALUES ($1, $2, 'BTC', 'greater_than', 1, '{"type":"greater_than","value":"1"}') RETURNING id`,
          [u, marketId],
        );
        await q(`INSERT INTO alert_logs (alert_id, value, dedupe_key) VALUES ($1, 2, 'k')`, [id]);
      },
      'notifications.user_id': (u) => q(`INSERT INTO notifications (user_id, title, message) VALUES ($1, 'Hi', 'there')`, [u]),
      'push_subscriptions.user_id': (u) => q(`INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, 'p', 'a')`, [u, `https://push.example.com/${u}`]),
      'telegram_links.user_id': (u) => q(`INSERT INTO telegram_links (user_id, chat_id, username, linked_at) VALUES ($1, $2, 'ada', now())`, [u, -400000000 - u]),
      'telegram_link_codes.user_id': (u) =>
        q(`INSERT INTO telegram_link_codes (user_id, code_hash, created_at, expires_at) VALUES ($1, $2, now(), now() + interval '15 minutes')`, [u, String(u).padStart(64, '0')]),
      'exchange_follows.user_id': (u) => q(`INSERT INTO exchange_follows (user_id, exchange_id) VALUES ($1, 'XTST')`, [u]),
      'cot_follows.user_id': (u) => q(`INSERT INTO cot_follows (user_id, instrument_id) VALUES ($1, $2)`, [u, instrumentId]),
      'insider_follows.user_id': (u) => q(`INSERT INTO insider_follows (user_id, company_id) VALUES ($1, $2)`, [u, insiderCompanyId]),
      'watchlists.user_id': async (u) => {
        const [{ id }] = await q<{ id: number }>(`INSERT INTO watchlists (user_id, name) VALUES ($1, 'Main') RETURNING id`, [u]);
        await q(`INSERT INTO watchlist_items (watchlist_id, market_id) VALUES ($1, $2)`, [id, marketId]);
      },
      'chart_layouts.user_id': (u) => q(`INSERT INTO chart_layouts (user_id, name, layout) VALUES ($1, 'Mine', '{}')`, [u]),
      'subscriptions.user_id': (u) =>
        q(`INSERT INTO subscriptions (user_id, stripe_subscription_id, stripe_customer_id) VALUES ($1, $2, $3)`, [u, `sub_${u}`, `cus_${u}`]),
      'chat_messages.user_id': (u) => q(`INSERT INTO chat_messages (room_id, user_id, message) VALUES ($1, $2, 'hello')`, [roomId, u]),
      'message_reactions.user_id': (u) => q(`INSERT INTO message_reactions (message_id, user_id, reaction) VALUES ($1, $2, 'up')`, [messageId, u]),
      'chat_room_members.user_id': (u) => q(`INSERT INTO chat_room_members (room_id, user_id) VALUES ($1, $2)`, [roomId, u]),
      'chat_notifications.user_id': (u) => q(`INSERT INTO chat_notifications (user_id, message_id) VALUES ($1, $2)`, [u, messageId]),
      'user_chat_preferences.user_id': (u) => q(`INSERT INTO user_chat_preferences (user_id) VALUES ($1)`, [u]),
      'user_predictions.user_id': (u) =>
        q(
          `INSERT INTO user_predictions (user_id, market_id, user_prediction, market_price, input_form, input_text, date_made)
           VALUES ($1, $2, 0.6, 0.5, 'probability', '0.6', now())`,
          [u, predictionMarketId],
        ),
      'prediction_performance.user_id': (u) => q(`INSERT INTO prediction_performance (user_id) VALUES ($1)`, [u]),
      'prediction_follows.user_id': (u) => q(`INSERT INTO prediction_follows (user_id, market_id) VALUES ($1, $2)`, [u, predictionMarketId]),
      'prediction_question_scores.user_id': (u) =>
        q(`INSERT INTO prediction_question_scores (user_id, market_id, outcome, resolved_at, p, m, points, forecasts) VALUES ($1, $2, 1, now(), 0.6, 0.5, 10, 1)`, [u, predictionMarketId]),
      'user_watchlists.user_id': (u) => q(`INSERT INTO user_watchlists (user_id, address_id) VALUES ($1, $2)`, [u, whaleAddressId]),
      'whale_alerts.user_id': (u) => q(
          `INSERT INTO whale_alerts (user_id, address_id, alert_type, message, frequency, tx_hash, log_index, block_number, direction)
           VALUES ($1, $2, 'large_transfer', 'moved', 'immediate', '0x' || repeat('a', 64), -1, 1, 'incoming')`,
          [u, whaleAddressId],
        ),
      'yield_alerts.user_id': async (u) => {
        const [{ id }] = await q<{ id: number }>(`INSERT INTO yield_alerts (user_id, pool_id, alert_type, threshold) VALUES ($1, $2, 'apr', 5) RETURNING id`, [u, poolId]);
        await q(`INSERT INTO yield_alert_logs (alert_id, triggered_value, threshold) VALUES ($1, 6, 5)`, [id]);
      },
      'lockup_follows.user_id': (u) => q(`INSERT INTO lockup_follows (user_id, kind, ticker) VALUES ($1, 'ticker', 'TEST')`, [u]),
      'chat_rooms.created_by': (u) => q(`INSERT INTO chat_rooms (name, created_by) VALUES ('Desk', $1)`, [u]),
      'chat_room_invites.created_by': (u) =>
        q(`INSERT INTO chat_room_invites (room_id, code_hash, created_by, expires_at) VALUES ($1, md5($2::int::text) || md5($2::int::text), $2::int, now() + interval '1 day')`, [roomId, u]),
      'chat_thread_follows.user_id': (u) => q(`INSERT INTO chat_thread_follows (user_id, message_id) VALUES ($1, $2)`, [u, messageId]),
      'chat_reports.reporter_id': (u) => q(`INSERT INTO chat_reports (message_id, reporter_id, reason) VALUES ($1, $2, 'spam')`, [messageId, u]),
      'chat_reports.resolved_by': async (u) => {
        const [{ id }] = await q<{ id: string }>(`INSERT INTO chat_messages (room_id, message) VALUES ($1, 'Reported') RETURNING id`, [roomId]);
        await q(`INSERT INTO chat_reports (message_id, reporter_id, reason, status, resolved_by, resolved_at) VALUES ($1, $2, 'spam', 'resolved', $2, now())`, [id, u]);
      },
      'chat_moderation_actions.moderator_id': (u) => q(`INSERT INTO chat_moderation_actions (room_id, moderator_id, action) VALUES ($1, $2, 'delete_message')`, [roomId, u]),
      'chat_moderation_actions.target_user_id': (u) =>
        q(`INSERT INTO chat_moderation_actions (room_id, moderator_id, target_user_id, action, rule) VALUES ($1, $2, $2, 'mute', 'spam')`, [roomId, u]),
      'chat_blocks.blocker_id': async (u) => {
        const [{ id: other }] = await q<{ id: number }>(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [`blocked-by-${u}@example.com`]);
        await q(`INSERT INTO chat_blocks (blocker_id, blocked_id) VALUES ($1, $2)`, [u, other]);
      },
      'chat_blocks.blocked_id': async (u) => {
        const [{ id: other }] = await q<{ id: number }>(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [`blocker-of-${u}@example.com`]);
        await q(`INSERT INTO chat_blocks (blocker_id, blocked_id) VALUES ($1, $2)`, [other, u]);
      },
      'lockup_notices.user_id': (u) => q(`INSERT INTO lockup_notices (user_id, event_id, days_before, notified_on) VALUES ($1, $2, 7, '2025-06-24')`, [u, lockupEventId]),
    };
    const owned = USER_OWNED_COLUMNS.filter((c) => c.table !== 'users');
    // A table added to the registry needs a fixture here, so its deletion is tested too.
    expect(owned.map((c) => key(c.table, c.column)).filter((k) => !FIXTURES[k])).toEqual([]);

    const leaver = await createUser(db.dataSource, { email: 'leaver@example.com', name: null, passwordHash: null, isVerified: true }, null);
    const stayer = await createUser(db.dataSource, { email: 'stayer@example.com', name: null, passwordHash: null, isVerified: true }, null);
    for (const user of [leaver, stayer]) for (const c of owned) await FIXTURES[key(c.table, c.column)](user.id);
    const rowsOf = async (table: string, column: string, userId: number) =>
      (await q<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [userId]))[0].n;
    const before = new Map<string, number>();
    for (const c of owned) {
      const n = await rowsOf(c.table, c.column, leaver.id);
      // Every fixture wrote its row.
      expect([key(c.table, c.column), n > 0]).toEqual([key(c.table, c.column), true]);
      before.set(key(c.table, c.column), await rowsOf(c.table, c.column, stayer.id));
    }

    const deleted = await deleteUser(db.dataSource, leaver.id, NOW, null);

    const left = new Map<string, number>();
    for (const c of owned.filter((c) => c.deletion === 'delete')) left.set(key(c.table, c.column), await rowsOf(c.table, c.column, leaver.id));
    expect(Object.fromEntries(left)).toEqual(Object.fromEntries([...left.keys()].map((k) => [k, 0])));
    // What hangs off the deleted rows goes with them.
    expect(await q(`SELECT l.id FROM alert_logs l WHERE l.alert_id = ANY($1::int[])`, [deleted.alertIds])).toEqual([]);
    expect(deleted.alertIds).toHaveLength(1);
    expect(await q(`SELECT i.id FROM watchlist_items i LEFT JOIN watchlists w ON w.id = i.watchlist_id WHERE w.id IS NULL`)).toEqual([]);

    // Kept: the records (the users row soft-deleted, the audit trail with DELETE_ACCOUNT, billing, the team's invitations).
    const [user] = await q<{ deleted_at: Date }>('SELECT deleted_at FROM users WHERE id = $1', [leaver.id]);
    expect(user.deleted_at).toEqual(NOW);
    expect(await q(`SELECT action FROM activity_logs WHERE user_id = $1 ORDER BY id`, [leaver.id])).toEqual([{ action: 'SIGN_IN' }, { action: 'DELETE_ACCOUNT' }]);
    expect(await rowsOf('subscriptions', 'user_id', leaver.id)).toBe(1);
    expect(await rowsOf('invitations', 'invited_by', leaver.id)).toBe(1);
    // The team rules: the leaver's own team of one went with them; they left the shared one.
    expect(await rowsOf('team_members', 'user_id', leaver.id)).toBe(0);
    expect(await q('SELECT user_id FROM team_members WHERE team_id = $1', [sharedTeamId])).toEqual([{ user_id: stayer.id }]);

    // The other user keeps every row.
    const after = new Map<string, number>();
    for (const c of owned) after.set(key(c.table, c.column), await rowsOf(c.table, c.column, stayer.id));
    expect(Object.fromEntries(after)).toEqual(Object.fromEntries(before));
  });
});

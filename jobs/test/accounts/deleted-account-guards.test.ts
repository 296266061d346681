import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { evaluatePriceTicks } from '../../src/alerts/alert-evaluation';
import { loadIndexRows } from '../../src/alerts/alert-firings.store';
import { ALERT_PUSH_OPTIONS } from '../../src/alerts/alert-triggers';
import { deliverAlertWebhook } from '../../src/alerts/alert-webhook';
import { mailHandlers } from '../../src/mail/mail.processor';
import { createMailer } from '../../src/mail/mailer';
import { sendPushes } from '../../src/notifications/push-delivery';
import { AlertsHarness, silentLogger } from '../alerts/alerts-harness';

/**
 * Issue 21, defect 1, the consumers' side: work queued for an account before it was deleted (or
 * rows a request racing the deletion left) does nothing once the account is deleted. Each
 * consumer re-checks in the database that the user is live. Here only the users row is
 * soft-deleted, so every row such a job reads is still there. Real PostgreSQL and Redis.
 */
describe('accounts: queued work for a deleted account does nothing', () => {
  let db: TestDatabase;
  let h: AlertsHarness;
  let outbox: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new AlertsHarness(db);
    outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'tb-outbox-'));
  });
  afterAll(async () => {
    await h.close();
    await db.drop();
    fs.rmSync(outbox, { recursive: true, force: true });
  });

  it('an evaluation, a webhook, a push and an email of a deleted account are skipped; a live one still gets them', async () => {
    const live = await h.user('live@example.test');
    const gone = await h.user('gone@example.test');
    const condition = { type: 'greater_than', value: '100' } as const;
    const liveAlert = await h.alert(live, 'BTCUSDT', condition, { webhookUrl: 'http://127.0.0.1:9/hook' });
    const goneAlert = await h.alert(gone, 'BTCUSDT', condition, { webhookUrl: 'http://127.0.0.1:9/hook' });
    // What was written or queued before the deletion: a firing with its webhook pending, its notification, a browser.
    const [{ id: logId }] = await db.dataSource.query(
      `INSERT INTO alert_logs (alert_id, value, dedupe_key, webhook_status) VALUES ($1, 150, 'before', 'pending') RETURNING id`,
      [goneAlert],
    );
    const [{ id: notificationId }] = await db.dataSource.query(`INSERT INTO notifications (user_id, title, message) VALUES ($1, 'BTC', 'above') RETURNING id`, [gone]);
    const [{ id: subscriptionId }] = await db.dataSource.query(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, 'http://127.0.0.1:9/push', 'p', 'a') RETURNING id`,
      [gone],
    );
    await db.dataSource.query('UPDATE users SET deleted_at = $2 WHERE id = $1', [gone, h.clock.now()]);

    // The worker's index still holds the alert (nobody told it): the evaluation re-checks the owner.
    const result = await evaluatePriceTicks({ ticks: [{ symbol: 'BTCUSDT', previous: '90', current: '150', at: h.clock.now().toISOString() }] }, h.context);
    expect(result.fired).toBe(1);
    const fired: { alert_id: number; dedupe_key: string }[] = await db.dataSource.query('SELECT alert_id, dedupe_key FROM alert_logs ORDER BY id');
    expect(fired.map((l) => [l.alert_id, l.dedupe_key === 'before'])).toEqual([
      [goneAlert, true],
      [liveAlert, false],
    ]);
    // A rebuilt index leaves it out.
    expect((await loadIndexRows(db.dataSource, h.clock.now())).map((r) => r.id)).toEqual([liveAlert]);

    // Its pending webhook is not sent (a send to port 9 would fail, not skip).
    await expect(deliverAlertWebhook({ alertLogId: String(logId) }, h.context, { allowPrivate: true, timeoutMs: 500 })).resolves.toEqual({ status: 'skipped' });

    // Its queued push reaches no browser.
    const pushed = await sendPushes({ targets: [{ notificationId: String(notificationId), subscriptionId }], push: ALERT_PUSH_OPTIONS, attempt: 1 }, h.context, () => {
      throw new Error('no push may be sent');
    });
    expect(pushed).toEqual({ sent: 0, removed: 0, retried: 0, rejected: 0, expired: 0 });

    // Its queued email copy is not sent; the live user's is.
    const [send] = mailHandlers;
    const mailer = createMailer({ from: 'a@b.test', outboxDir: outbox, logger: silentLogger });
    await expect(send.run({ to: 'gone@example.test', subject: 'BTC', text: 'above', userId: gone }, { ...h.context, mailer })).resolves.toEqual({
      skipped: 'account deleted',
    });
    expect(fs.readdirSync(outbox)).toEqual([]);
    await expect(send.run({ to: 'live@example.test', subject: 'BTC', text: 'above', userId: live }, { ...h.context, mailer })).resolves.toMatchObject({
      via: 'outbox',
    });
    expect(fs.readdirSync(outbox)).toHaveLength(1);
    mailer.close();
  });
});

import { Router, type Request } from 'express';
import type Redis from 'ioredis';
import type { DataSource, EntityManager } from 'typeorm';
import {
  ALERT_LOG_VIEW_COLUMNS,
  ALERT_VIEW_COLUMNS,
  alertBarsBackfillJobId,
  alertIdParamSchema,
  alertListQuerySchema,
  alertLogsQuerySchema,
  alertPlanLimitMessage,
  alertThreshold,
  checkAlertPlanLimit,
  checkWebhookUrl,
  createAlertBodySchema,
  defaultFrequency,
  generateWebhookSecret,
  isTechnicalCondition,
  patchAlertBodySchema,
  publishAlertChanges,
  resolveAlertInterval,
  systemClock,
  toCheckedAlert,
  toClientAlert,
  toClientAlertLog,
  type AlertCondition,
  type AlertInputIssue,
  type AlertLogViewRow,
  type AlertPlanLimits,
  type AlertViewRow,
  type AlertsSql,
  type CandleInterval,
  type CheckedAlertRow,
  type Clock,
  type JobQueues,
  type Logger,
} from '@tickerbell/jobs';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError, notFound } from '../http/errors';

export interface AlertsRouteDeps {
  config: { NODE_ENV: 'development' | 'production' | 'test'; ALERTS_PLAN_LIMITS: AlertPlanLimits };
  dataSource: DataSource;
  /** Publishes alert changes to the workers' indexes. */
  redis: Redis;
  queues: JobQueues;
  logger: Logger;
  clock?: Clock;
}

/** Firings one POST /api/alerts/crypto/check hands out at most (the rest come on the next poll). */
export const ALERTS_CHECK_BATCH = 50;

interface MarketRow {
  id: number;
  symbol: string;
  type: string;
}

/** The alert row a PATCH edits, locked for the transaction. */
interface StoredAlertRow {
  id: number;
  market_id: number;
  symbol: string;
  market_type: string;
  params: AlertCondition;
  interval: string | null;
  is_active: boolean;
  expires_at: Date | null;
  webhook_url: string | null;
  webhook_secret: string | null;
}

/** A 400 in the shape of the api's validation errors, for checks a schema cannot make alone. */
function invalid(issue: AlertInputIssue, message = `Invalid input: ${issue.field}`): HttpError {
  return new HttpError(400, 'validation_failed', message, [issue]);
}

/** Symbols are matched exactly first, then case-insensitively (btcusdt finds BTCUSDT). */
async function findMarket(db: AlertsSql, symbol: string): Promise<MarketRow> {
  const rows: MarketRow[] = await db.query(
    `SELECT id, symbol, type FROM markets WHERE upper(symbol) = upper($1) ORDER BY (symbol = $1) DESC, id LIMIT 1`,
    [symbol],
  );
  if (!rows.length) throw invalid({ field: 'symbol', message: `unknown symbol ${symbol}` }, `No market with symbol ${symbol}`);
  return rows[0];
}

async function readAlert(db: AlertsSql, userId: number, id: number): Promise<AlertViewRow | null> {
  const rows: AlertViewRow[] = await db.query(
    `SELECT ${ALERT_VIEW_COLUMNS} FROM alerts a JOIN markets m ON m.id = a.market_id WHERE a.id = $1 AND a.user_id = $2`,
    [id, userId],
  );
  return rows[0] ?? null;
}

/** An instant the alert may still fire before: strictly after now. */
function futureInstant(iso: string, now: Date): Date {
  const at = new Date(iso);
  if (at.getTime() <= now.getTime()) throw invalid({ field: 'expiresAt', message: 'must be in the future' });
  return at;
}

/**
 * The signed-in user's alerts: CRUD, firing history, and the spec's polling endpoint. Every query
 * is scoped to the session user, so another user's alert id is a 404. After each committed write
 * the workers' indexes are told (publishAlertChanges), and a technical alert queues its bars.
 */
export function alertsRoutes(deps: AlertsRouteDeps): Router {
  const { dataSource: db, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const limits = deps.config.ALERTS_PLAN_LIMITS;
  const production = deps.config.NODE_ENV === 'production';
  const router = Router();

  const planLimitError = (usage: { plan: string; limit: number; active: number }) =>
    new HttpError(403, 'plan_limit', alertPlanLimitMessage(usage), usage);

  /**
   * After the commit: the change is stored whatever happens here, so a Redis failure is logged
   * rather than turned into an error the client would read as "not saved". A worker that missed
   * the message picks the alert up on its next index rebuild (start).
   */
  async function afterWrite(alertId: number, backfill: { symbol: string; interval: CandleInterval } | null): Promise<void> {
    try {
      await publishAlertChanges(deps.redis, deps.queues.prefix, [alertId]);
    } catch (err) {
      logger.error({ err, alertId }, 'alerts: could not publish the alert change');
    }
    if (!backfill) return;
    try {
      await deps.queues.add(
        'prices.backfill-bars',
        { symbol: backfill.symbol, interval: backfill.interval, limit: 500 },
        { jobId: alertBarsBackfillJobId(backfill.symbol, backfill.interval, clock.now()) },
      );
    } catch (err) {
      logger.error({ err, alertId, ...backfill }, 'alerts: could not queue the bars backfill');
    }
  }

  /** Without a URL there is no secret; a URL without one gets a generated secret. */
  function webhookOf(url: string | null, secret: string | null, sentSecret: string | null | undefined): { url: string | null; secret: string | null } {
    if (url === null) {
      if (sentSecret) throw invalid({ field: 'webhookSecret', message: 'needs a webhookUrl' });
      return { url: null, secret: null };
    }
    return { url, secret: secret ?? generateWebhookSecret() };
  }

  router.get('/alerts', requireUser, async (req, res) => {
    const query = alertListQuerySchema.parse(req.query);
    // Newest first by id (ids are handed out in creation order). The cursor is the last id of the
    // previous page compared directly, not looked up: it stays valid when that alert is deleted
    // meanwhile, as a user deleting from the list they are paging through does.
    const rows: AlertViewRow[] = await db.query(
      `SELECT ${ALERT_VIEW_COLUMNS} FROM alerts a JOIN markets m ON m.id = a.market_id
        WHERE a.user_id = $1 AND ($2::boolean IS NULL OR a.is_active = $2) AND ($3::text IS NULL OR upper(m.symbol) = upper($3))
          AND ($4::int IS NULL OR a.id < $4)
        ORDER BY a.id DESC
        LIMIT $5`,
      [sessionUser(req).id, query.active ?? null, query.symbol ?? null, query.before ?? null, query.limit + 1],
    );
    const page = rows.slice(0, query.limit);
    res.set('Cache-Control', 'no-store').json({
      alerts: page.map(toClientAlert),
      nextBefore: rows.length > query.limit ? String(page[page.length - 1].id) : null,
    });
  });

  router.post('/alerts', requireUser, async (req, res) => {
    const body = createAlertBodySchema.parse(req.body);
    const userId = sessionUser(req).id;
    const now = clock.now();
    const market = await findMarket(db, body.symbol);
    const { condition } = body;
    const resolved = resolveAlertInterval(condition, body.interval);
    if ('issue' in resolved) throw invalid(resolved.issue);
    const expiresAt = body.expiresAt ? futureInstant(body.expiresAt, now) : null;
    const webhookIssue = body.webhookUrl ? checkWebhookUrl(body.webhookUrl, { production }) : null;
    if (webhookIssue) throw invalid(webhookIssue);
    const webhook = webhookOf(body.webhookUrl ?? null, body.webhookSecret ?? null, body.webhookSecret);
    const isActive = body.isActive ?? true;

    const id = await db.transaction(async (manager: EntityManager) => {
      if (isActive) {
        const over = await checkAlertPlanLimit(manager, userId, limits, now);
        if (over) throw planLimitError(over);
      }
      const [row]: { id: number }[] = await manager.query(
        `INSERT INTO alerts (user_id, market_id, name, condition, value, params, interval, frequency, cooldown_seconds, expires_at,
                             is_active, use_audio, audio_message, audio_voice_id, notify_push, notify_email, webhook_url, webhook_secret,
                             created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $19)
         RETURNING id`,
        [
          userId,
          market.id,
          body.name,
          condition.type,
          alertThreshold(condition),
          JSON.stringify(condition),
          resolved.interval,
          body.frequency ?? defaultFrequency(market.type),
          body.cooldownSeconds ?? 60,
          expiresAt,
          isActive,
          body.useAudio ?? false,
          body.audioMessage ?? null,
          body.audioVoiceId ?? null,
          body.notifyPush ?? true,
          body.notifyEmail ?? false,
          webhook.url,
          webhook.secret,
          now,
        ],
      );
      return row.id;
    });

    await afterWrite(id, resolved.interval ? { symbol: market.symbol, interval: resolved.interval } : null);
    const alert = await readAlert(db, userId, id);
    if (!alert) throw notFound('No such alert');
    res.status(201).json({ alert: toClientAlert(alert) });
  });

  router.get('/alerts/:id', requireUser, async (req, res) => {
    const { id } = alertIdParamSchema.parse(req.params);
    const alert = await readAlert(db, sessionUser(req).id, id);
    if (!alert) throw notFound('No such alert');
    res.set('Cache-Control', 'no-store').json({ alert: toClientAlert(alert) });
  });

  router.patch('/alerts/:id', requireUser, async (req, res) => {
    const { id } = alertIdParamSchema.parse(req.params);
    const body = patchAlertBodySchema.parse(req.body);
    const userId = sessionUser(req).id;
    const now = clock.now();

    const backfill = await db.transaction(async (manager: EntityManager) => {
      const [stored]: StoredAlertRow[] = await manager.query(
        `SELECT a.id, a.market_id, m.symbol, m.type AS market_type, a.params, a.interval, a.is_active, a.expires_at, a.webhook_url, a.webhook_secret
           FROM alerts a JOIN markets m ON m.id = a.market_id
          WHERE a.id = $1 AND a.user_id = $2
            FOR UPDATE OF a`,
        [id, userId],
      );
      if (!stored) throw notFound('No such alert');

      const market = body.symbol === undefined ? { id: stored.market_id, symbol: stored.symbol, type: stored.market_type } : await findMarket(manager, body.symbol);
      // The stored params were validated when written.
      const condition = body.condition ?? stored.params;
      const resolved = resolveAlertInterval(condition, body.interval, stored.interval);
      if ('issue' in resolved) throw invalid(resolved.issue);

      let expiresAt = stored.expires_at;
      if (body.expiresAt !== undefined) expiresAt = body.expiresAt === null ? null : futureInstant(body.expiresAt, now);
      const activating = body.isActive === true && !stored.is_active;
      if (activating && expiresAt && expiresAt.getTime() <= now.getTime()) {
        throw invalid({ field: 'expiresAt', message: 'has passed: set a later expiry (or none) to activate the alert again' });
      }

      if (body.webhookUrl) {
        const issue = checkWebhookUrl(body.webhookUrl, { production });
        if (issue) throw invalid(issue);
      }
      const url = body.webhookUrl === undefined ? stored.webhook_url : body.webhookUrl;
      // A new URL keeps the stored secret unless one is sent: the receiver stays configured.
      const webhook = webhookOf(url, body.webhookSecret === undefined ? stored.webhook_secret : body.webhookSecret, body.webhookSecret);

      if (activating) {
        const over = await checkAlertPlanLimit(manager, userId, limits, now);
        if (over) throw planLimitError(over);
      }

      await manager.query(
        `UPDATE alerts SET
           name = COALESCE($3, name), market_id = $4, condition = $5, value = $6, params = $7::jsonb, interval = $8,
           frequency = COALESCE($9, frequency), cooldown_seconds = COALESCE($10, cooldown_seconds), expires_at = $11,
           is_active = COALESCE($12, is_active), use_audio = COALESCE($13, use_audio),
           audio_message = CASE WHEN $14::boolean THEN $15 ELSE audio_message END,
           audio_voice_id = CASE WHEN $16::boolean THEN $17 ELSE audio_voice_id END,
           notify_push = COALESCE($18, notify_push), notify_email = COALESCE($19, notify_email),
           webhook_url = $20, webhook_secret = $21, updated_at = $22
         WHERE id = $1 AND user_id = $2`,
        [
          id,
          userId,
          body.name ?? null,
          market.id,
          condition.type,
          alertThreshold(condition),
          JSON.stringify(condition),
          resolved.interval,
          body.frequency ?? null,
          body.cooldownSeconds ?? null,
          expiresAt,
          body.isActive ?? null,
          body.useAudio ?? null,
          body.audioMessage !== undefined,
          body.audioMessage ?? null,
          body.audioVoiceId !== undefined,
          body.audioVoiceId ?? null,
          body.notifyPush ?? null,
          body.notifyEmail ?? null,
          webhook.url,
          webhook.secret,
          now,
        ],
      );

      // New bars are needed when the alert becomes technical or watches other bars.
      const barsChanged =
        isTechnicalCondition(condition) &&
        resolved.interval !== null &&
        (!isTechnicalCondition(stored.params) || market.id !== stored.market_id || resolved.interval !== stored.interval);
      return barsChanged && resolved.interval ? { symbol: market.symbol, interval: resolved.interval } : null;
    });

    await afterWrite(id, backfill);
    const alert = await readAlert(db, userId, id);
    if (!alert) throw notFound('No such alert');
    res.json({ alert: toClientAlert(alert) });
  });

  router.delete('/alerts/:id', requireUser, async (req, res) => {
    const { id } = alertIdParamSchema.parse(req.params);
    // Its alert_logs go with it (ON DELETE CASCADE).
    const [rows]: [{ id: number }[], number] = await db.query('DELETE FROM alerts WHERE id = $1 AND user_id = $2 RETURNING id', [
      id,
      sessionUser(req).id,
    ]);
    if (!rows.length) throw notFound('No such alert');
    await afterWrite(id, null);
    res.status(204).end();
  });

  router.get('/alerts/:id/logs', requireUser, async (req, res) => {
    const { id } = alertIdParamSchema.parse(req.params);
    const query = alertLogsQuerySchema.parse(req.query);
    const owned: unknown[] = await db.query('SELECT 1 FROM alerts WHERE id = $1 AND user_id = $2', [id, sessionUser(req).id]);
    if (!owned.length) throw notFound('No such alert');
    // Newest first by (triggered_at, id); `before` is the last log of the previous page.
    const rows: AlertLogViewRow[] = await db.query(
      `SELECT ${ALERT_LOG_VIEW_COLUMNS} FROM alert_logs
        WHERE alert_id = $1
          AND ($2::bigint IS NULL OR (triggered_at, id) < (SELECT b.triggered_at, b.id FROM alert_logs b WHERE b.id = $2::bigint AND b.alert_id = $1))
        ORDER BY triggered_at DESC, id DESC
        LIMIT $3`,
      [id, query.before ?? null, query.limit + 1],
    );
    const page = rows.slice(0, query.limit);
    res.set('Cache-Control', 'no-store').json({
      logs: page.map(toClientAlertLog),
      nextBefore: rows.length > query.limit ? String(page[page.length - 1].id) : null,
    });
  });

  /**
   * The spec's polling endpoint (every 30 s from a visible tab). It answers the SIGNED-IN user's
   * firings that no client has picked up yet and marks them picked up in the same statement, so
   * two tabs (or two api instances) never both get one. The body's `userId` (the spec client
   * sends one from local storage) is never read: trusting it would hand out anyone's alerts.
   */
  router.post('/alerts/crypto/check', requireUser, async (req: Request, res) => {
    const userId = sessionUser(req).id;
    // One statement picks and marks: a materialized CTE is evaluated once (a subquery with
    // FOR UPDATE can be rescanned and pick more rows than the limit). SKIP LOCKED: a concurrent
    // check takes other rows instead of waiting; `checked_at IS NULL` is re-checked on a row
    // that another check updated meanwhile.
    const [rows]: [CheckedAlertRow[], number] = await db.query(
      `WITH picked AS MATERIALIZED (
         SELECT u.id FROM alert_logs u JOIN alerts ua ON ua.id = u.alert_id
          WHERE ua.user_id = $1 AND u.checked_at IS NULL
          ORDER BY u.triggered_at, u.id
          LIMIT $3
            FOR UPDATE OF u SKIP LOCKED
       )
       UPDATE alert_logs l SET checked_at = $2
         FROM picked, alerts a JOIN markets m ON m.id = a.market_id
        WHERE l.id = picked.id AND a.id = l.alert_id AND a.user_id = $1 AND l.checked_at IS NULL
        RETURNING l.id AS log_id, l.triggered_at, l.value AS log_value, l.message, a.id AS alert_id, a.name, m.symbol,
                  a.condition, a.value AS threshold, a.use_audio, a.audio_message, a.audio_voice_id`,
      [userId, clock.now(), ALERTS_CHECK_BATCH],
    );
    // RETURNING has no order: oldest first, as they fired.
    rows.sort((x, y) => new Date(x.triggered_at).getTime() - new Date(y.triggered_at).getTime() || Number(BigInt(x.log_id) - BigInt(y.log_id)));
    res.set('Cache-Control', 'no-store').json({ triggeredAlerts: rows.map(toCheckedAlert) });
  });

  return router;
}

import type Redis from 'ioredis';
import type { DataSource, EntityManager } from 'typeorm';
import type { Entitlements } from '../billing/entitlements';
import { requestBarsBackfill } from '../prices/price-backfill';
import type { CandleInterval } from '../prices/price-source';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import type { Logger } from '../runtime/logger';
import { publishAlertChanges } from './alert-changes';
import { isTechnicalCondition, type AlertCondition } from './alert-conditions';
import { defaultFrequency } from './alert-frequency';
import {
  alertThreshold,
  checkWebhookUrl,
  conditionMarketIssue,
  generateWebhookSecret,
  resolveAlertInterval,
  type AlertInputIssue,
  type CreateAlertBody,
  type PatchAlertBody,
} from './alert-input';
import { toCheckedAlert, toClientAlert, toClientAlertLog, type CheckedAlert, type ClientAlert, type ClientAlertLog } from './alert-view';
import {
  alertBelongsTo,
  countActiveAlerts,
  deleteAlertRow,
  findAlertMarket,
  insertAlertRow,
  listAlertLogViews,
  listAlertViews,
  lockAlertForEdit,
  pickUncheckedFirings,
  readAlertView,
  updateAlertRow,
  type AlertMarketRow,
  type AlertsDb,
} from './alerts.store';

/**
 * What the api does with the signed-in user's alerts: CRUD, firing history and the spec's polling
 * endpoint. Every call is scoped to the user, so another user's alert id is not found. After each
 * committed write the workers' indexes are told (publishAlertChanges), and a technical alert
 * queues its bars. A refusal is an AlertError (nothing written), or the entitlements'
 * EntitlementError (plan limit of active alerts, webhooks not in the plan, read-only account);
 * the api maps both to a status.
 */

export type AlertErrorCode = 'not_found' | 'validation_failed';

export class AlertError extends Error {
  constructor(
    readonly code: AlertErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AlertError';
  }
}

function checkSessionMarket(condition: AlertCondition, market: { symbol: string; type: string }): void {
  const issue = conditionMarketIssue(condition, market);
  if (issue) throw invalid(issue);
}

const alertNotFound = () => new AlertError('not_found', 'No such alert');

/** A check a schema cannot make alone, in the shape of the api's validation errors. */
function invalid(issue: AlertInputIssue, message = `Invalid input: ${issue.field}`): AlertError {
  return new AlertError('validation_failed', message, [issue]);
}

/**
 * Inside the write's transaction: one more active alert must fit the plan (`activeAlerts`, counted
 * under the entitlements' per-user lock, so two concurrent requests at limit - 1 cannot both pass;
 * alerts past their expiry do not count). Refuses a read-only account too.
 */
function checkActiveAlertLimit(deps: AlertsServiceDeps, manager: EntityManager, userId: number, now: Date): Promise<void> {
  return deps.entitlements.checkLimit(manager, userId, 'activeAlerts', () => countActiveAlerts(manager, userId, now), now);
}

export interface AlertsServiceDeps {
  dataSource: DataSource;
  /** Publishes alert changes to the workers' indexes. */
  redis: Redis;
  queues: JobQueues;
  logger: Logger;
  clock: Clock;
  /** What the user's plan allows: active alerts (`activeAlerts`), webhooks, read-only mode. */
  entitlements: Entitlements;
  /** Production refuses webhooks to plain http and private addresses. */
  production: boolean;
}

/** Firings one check hands out at most (the rest come on the next poll). */
export const ALERTS_CHECK_BATCH = 50;

/** Bars a new technical alert's backfill asks for. */
const ALERT_BACKFILL_BARS = 500;

/** A page of a list: `nextBefore` is the cursor of the next page (null on the last). */
export interface AlertsPage {
  alerts: ClientAlert[];
  nextBefore: string | null;
}

export interface AlertLogsPage {
  logs: ClientAlertLog[];
  nextBefore: string | null;
}

async function findMarket(db: AlertsDb, symbol: string): Promise<AlertMarketRow> {
  const market = await findAlertMarket(db, symbol);
  if (!market) throw invalid({ field: 'symbol', message: `unknown symbol ${symbol}` }, `No market with symbol ${symbol}`);
  return market;
}

/** An instant the alert may still fire before: strictly after now. */
function futureInstant(iso: string, now: Date): Date {
  const at = new Date(iso);
  if (at.getTime() <= now.getTime()) throw invalid({ field: 'expiresAt', message: 'must be in the future' });
  return at;
}

/** Without a URL there is no secret; a URL without one gets a generated secret. */
function webhookOf(url: string | null, secret: string | null, sentSecret: string | null | undefined): { url: string | null; secret: string | null } {
  if (url === null) {
    if (sentSecret) throw invalid({ field: 'webhookSecret', message: 'needs a webhookUrl' });
    return { url: null, secret: null };
  }
  return { url, secret: secret ?? generateWebhookSecret() };
}

/**
 * After the commit: the change is stored whatever happens here, so a Redis failure is logged
 * rather than turned into an error the client would read as "not saved". A worker that missed
 * the message picks the alert up on its next index rebuild (start).
 */
async function afterWrite(deps: AlertsServiceDeps, alertId: number, backfill: { symbol: string; interval: CandleInterval } | null): Promise<void> {
  try {
    await publishAlertChanges(deps.redis, deps.queues.prefix, [alertId]);
  } catch (err) {
    deps.logger.error({ err, alertId }, 'alerts: could not publish the alert change');
  }
  if (!backfill) return;
  try {
    await requestBarsBackfill(deps.queues, backfill.symbol, backfill.interval, ALERT_BACKFILL_BARS, deps.clock.now());
  } catch (err) {
    deps.logger.error({ err, alertId, ...backfill }, 'alerts: could not queue the bars backfill');
  }
}

async function readAlert(deps: AlertsServiceDeps, userId: number, id: number): Promise<ClientAlert> {
  const alert = await readAlertView(deps.dataSource, userId, id);
  if (!alert) throw alertNotFound();
  return toClientAlert(alert);
}

/** The user's alerts, newest first; `before` is the last id of the previous page. */
export async function listAlerts(
  deps: Pick<AlertsServiceDeps, 'dataSource'>,
  userId: number,
  query: { active?: boolean; symbol?: string; before?: number; limit: number },
): Promise<AlertsPage> {
  const rows = await listAlertViews(deps.dataSource, userId, { ...query, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  return { alerts: page.map(toClientAlert), nextBefore: rows.length > query.limit ? String(page[page.length - 1].id) : null };
}

export function getAlert(deps: AlertsServiceDeps, userId: number, id: number): Promise<ClientAlert> {
  return readAlert(deps, userId, id);
}

/**
 * A new alert (active unless asked otherwise, within the user's plan limit; an inactive one only
 * needs a writable account). A webhook needs a plan with webhooks.
 */
export async function createAlert(deps: AlertsServiceDeps, userId: number, body: CreateAlertBody): Promise<ClientAlert> {
  const now = deps.clock.now();
  const market = await findMarket(deps.dataSource, body.symbol);
  const { condition } = body;
  checkSessionMarket(condition, market);
  const resolved = resolveAlertInterval(condition, body.interval);
  if ('issue' in resolved) throw invalid(resolved.issue);
  const expiresAt = body.expiresAt ? futureInstant(body.expiresAt, now) : null;
  const webhookIssue = body.webhookUrl ? checkWebhookUrl(body.webhookUrl, { production: deps.production }) : null;
  if (webhookIssue) throw invalid(webhookIssue);
  const webhook = webhookOf(body.webhookUrl ?? null, body.webhookSecret ?? null, body.webhookSecret);
  const isActive = body.isActive ?? true;

  const id = await deps.dataSource.transaction(async (manager) => {
    if (isActive) await checkActiveAlertLimit(deps, manager, userId, now);
    else await deps.entitlements.checkWritable(manager, userId, now);
    if (webhook.url) await deps.entitlements.checkFeature(manager, userId, 'webhooks', now);
    return insertAlertRow(manager, {
      userId,
      marketId: market.id,
      name: body.name,
      condition: condition.type,
      value: alertThreshold(condition),
      params: condition,
      interval: resolved.interval,
      frequency: body.frequency ?? defaultFrequency(market.type),
      cooldownSeconds: body.cooldownSeconds ?? 60,
      expiresAt,
      isActive,
      useAudio: body.useAudio ?? false,
      audioMessage: body.audioMessage ?? null,
      audioVoiceId: body.audioVoiceId ?? null,
      notifyPush: body.notifyPush ?? true,
      notifyEmail: body.notifyEmail ?? false,
      webhookUrl: webhook.url,
      webhookSecret: webhook.secret,
      now,
    });
  });

  await afterWrite(deps, id, resolved.interval ? { symbol: market.symbol, interval: resolved.interval } : null);
  return readAlert(deps, userId, id);
}

/** Edits an alert: fields sent are changed, null clears a nullable one. */
export async function updateAlert(deps: AlertsServiceDeps, userId: number, id: number, body: PatchAlertBody): Promise<ClientAlert> {
  const now = deps.clock.now();
  const backfill = await deps.dataSource.transaction(async (manager) => {
    const stored = await lockAlertForEdit(manager, userId, id);
    if (!stored) throw alertNotFound();
    // The stored params were validated when written.
    const storedCondition = stored.params as AlertCondition;

    const market = body.symbol === undefined ? { id: stored.market_id, symbol: stored.symbol, type: stored.market_type } : await findMarket(manager, body.symbol);
    const condition = body.condition ?? storedCondition;
    checkSessionMarket(condition, market);
    const resolved = resolveAlertInterval(condition, body.interval, stored.interval);
    if ('issue' in resolved) throw invalid(resolved.issue);

    let expiresAt = stored.expires_at;
    if (body.expiresAt !== undefined) expiresAt = body.expiresAt === null ? null : futureInstant(body.expiresAt, now);
    const activating = body.isActive === true && !stored.is_active;
    if (activating && expiresAt && expiresAt.getTime() <= now.getTime()) {
      throw invalid({ field: 'expiresAt', message: 'has passed: set a later expiry (or none) to activate the alert again' });
    }

    if (body.webhookUrl) {
      const issue = checkWebhookUrl(body.webhookUrl, { production: deps.production });
      if (issue) throw invalid(issue);
    }
    const url = body.webhookUrl === undefined ? stored.webhook_url : body.webhookUrl;
    // A new URL keeps the stored secret unless one is sent: the receiver stays configured.
    const webhook = webhookOf(url, body.webhookSecret === undefined ? stored.webhook_secret : body.webhookSecret, body.webhookSecret);

    if (activating) await checkActiveAlertLimit(deps, manager, userId, now);
    // A new webhook URL needs the feature; one the alert already has keeps working for edits.
    if (webhook.url && webhook.url !== stored.webhook_url) await deps.entitlements.checkFeature(manager, userId, 'webhooks', now);

    await updateAlertRow(manager, userId, id, {
      name: body.name,
      marketId: market.id,
      condition: condition.type,
      value: alertThreshold(condition),
      params: condition,
      interval: resolved.interval,
      frequency: body.frequency,
      cooldownSeconds: body.cooldownSeconds,
      expiresAt,
      isActive: body.isActive,
      useAudio: body.useAudio,
      audioMessage: body.audioMessage,
      audioVoiceId: body.audioVoiceId,
      notifyPush: body.notifyPush,
      notifyEmail: body.notifyEmail,
      webhookUrl: webhook.url,
      webhookSecret: webhook.secret,
      now,
    });

    // New bars are needed when the alert becomes technical or watches other bars.
    const barsChanged =
      isTechnicalCondition(condition) &&
      resolved.interval !== null &&
      (!isTechnicalCondition(storedCondition) || market.id !== stored.market_id || resolved.interval !== stored.interval);
    return barsChanged && resolved.interval ? { symbol: market.symbol, interval: resolved.interval } : null;
  });

  await afterWrite(deps, id, backfill);
  return readAlert(deps, userId, id);
}

/** Deletes an alert and its firings. */
export async function deleteAlert(deps: AlertsServiceDeps, userId: number, id: number): Promise<void> {
  if (!(await deleteAlertRow(deps.dataSource, userId, id))) throw alertNotFound();
  await afterWrite(deps, id, null);
}

/** An alert's firings, newest first; `before` is the last log of the previous page. */
export async function listAlertLogs(
  deps: Pick<AlertsServiceDeps, 'dataSource'>,
  userId: number,
  id: number,
  query: { before?: string; limit: number },
): Promise<AlertLogsPage> {
  if (!(await alertBelongsTo(deps.dataSource, userId, id))) throw alertNotFound();
  const rows = await listAlertLogViews(deps.dataSource, id, query.before ?? null, query.limit + 1);
  const page = rows.slice(0, query.limit);
  return { logs: page.map(toClientAlertLog), nextBefore: rows.length > query.limit ? String(page[page.length - 1].id) : null };
}

/**
 * The spec's polling endpoint: the user's firings that no client has picked up yet (oldest first,
 * at most ALERTS_CHECK_BATCH), marked picked up so that no other tab or api instance gets them.
 */
export async function checkAlerts(deps: Pick<AlertsServiceDeps, 'dataSource' | 'clock'>, userId: number): Promise<CheckedAlert[]> {
  const rows = await pickUncheckedFirings(deps.dataSource, userId, deps.clock.now(), ALERTS_CHECK_BATCH);
  return rows.map(toCheckedAlert);
}

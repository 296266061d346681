import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { fanOutToFollowers } from '../notifications/fan-out';
import { importanceOf, type NotificationContent, type PushOptions } from '../notifications/notification-content';
import type { Clock } from '../runtime/clock';
import { defineHandler, type JobHandler } from '../runtime/job-handler';
import type { JobQueues } from '../runtime/job-queues';
import {
  checkEvent,
  computeConsensus,
  consensusConfidence,
  consensusReasoning,
  decideAlert,
  eventConfidence,
  eventReasoning,
  executablePrices,
  formatPoints,
  MISPRICING_CLOSE_RATIO,
  priceGap,
  round4,
  toFixed4,
  type AlertDecision,
  type EventCheck,
  type ExecutablePrices,
  type MispricingSettings,
  type PriceGap,
} from './predictions-mispricing';
import {
  alertsAwaitingNotification,
  closeMispricingAlert,
  consensusForecasts,
  insertMispricingAlert,
  lockMispricingRun,
  markMispricingAlertNotified,
  mispricingMarkets,
  openMispricingAlerts,
  predictionFollowersAudience,
  refreshMispricingAlert,
  type MispricingAlertContent,
  type MispricingAlertToNotify,
  type MispricingMarket,
  type OpenMispricingAlert,
} from './predictions-mispricing.store';
import type { PredictionsConfig } from './predictions.config';
import type { MispricingSource } from './predictions.shapes';

// predictions.mispricing: recomputes every alert from the rules (predictions-mispricing.ts) in one
// transaction, then notifies the followers of each new alert. Rules and numbers in docs/predictions.md.

const DAY_MS = 86_400_000;

/** The run's settings: the rules' and the consensus window. */
export interface MispricingRunSettings extends MispricingSettings {
  consensusDays: number;
}

export function mispricingSettingsOf(
  config: Pick<PredictionsConfig, 'PREDICTIONS_MISPRICING_THRESHOLD' | 'PREDICTIONS_FEE_RATE' | 'PREDICTIONS_CONSENSUS_MIN_FORECASTERS' | 'PREDICTIONS_CONSENSUS_DAYS'>,
): MispricingRunSettings {
  return {
    threshold: config.PREDICTIONS_MISPRICING_THRESHOLD,
    feeRate: config.PREDICTIONS_FEE_RATE,
    minForecasters: config.PREDICTIONS_CONSENSUS_MIN_FORECASTERS,
    consensusDays: config.PREDICTIONS_CONSENSUS_DAYS,
  };
}

/**
 * Claims the scheduled run of a PREDICTIONS_MISPRICING_MINUTES slot for the cluster: the schedule
 * ticks every minute and the first tick of each slot runs (the others answer "not due").
 */
export async function claimMispricingSlot(redis: Redis, prefix: string, now: Date, minutes: number): Promise<boolean> {
  const slotMs = minutes * 60_000;
  const slot = Math.floor(now.getTime() / slotMs);
  return (await redis.set(`${prefix}:predictions:mispricing-slot:${minutes}:${slot}`, '1', 'PX', slotMs * 2, 'NX')) === 'OK';
}

export interface MispricingRunOutcome {
  /** Markets looked at (recent forecasts, negative-risk events, open alerts). */
  markets: number;
  /** Negative-risk events checked (eligible: not augmented, 2+ markets, all priced). */
  events: number;
  opened: number;
  refreshed: number;
  closed: number;
  notified: { alerts: number; batches: number; users: number };
}

type Evaluation = { gap: PriceGap | 'no_fair_value' | 'no_price'; canOpen: boolean; content?: (gap: PriceGap) => MispricingAlertContent };

const PRICE_NOTES = {
  book: null,
  gamma_spread: 'No order book known: the bid and ask are the mid less and plus half the spread Polymarket reports.',
  mid: 'No bid, ask or spread known: the gap is measured against the mid.',
} as const;

function priceDetails(market: MispricingMarket, exec: ExecutablePrices, gap: PriceGap, settings: MispricingSettings): Record<string, unknown> {
  const note = PRICE_NOTES[exec.basis];
  return {
    priceBasis: exec.basis,
    ...(note ? { priceNote: note } : {}),
    priceSource: market.priceSource,
    priceAt: market.priceAt?.toISOString() ?? null,
    bid: exec.bid,
    ask: exec.ask,
    mid: exec.mid,
    spread: exec.spread,
    side: gap.side,
    feeRate: settings.feeRate,
    fee: gap.fee,
    threshold: settings.threshold,
    closesBelow: round4(settings.threshold * MISPRICING_CLOSE_RATIO),
  };
}

function evaluateConsensus(
  market: MispricingMarket,
  exec: ExecutablePrices | null,
  forecasts: Map<number, Parameters<typeof computeConsensus>[0]>,
  settings: MispricingRunSettings,
): Evaluation {
  const consensus = computeConsensus(forecasts.get(market.id) ?? [], settings.minForecasters);
  if (!consensus) return { gap: 'no_fair_value', canOpen: false };
  if (!exec) return { gap: 'no_price', canOpen: false };
  return {
    gap: priceGap(consensus.fairValue, exec, settings.feeRate),
    canOpen: true,
    content: (gap) => ({
      marketId: market.id,
      source: 'consensus',
      currentPrice: toFixed4(gap.price),
      fairValue: toFixed4(consensus.fairValue),
      deviation: toFixed4(gap.deviation),
      confidence: toFixed4(consensusConfidence(consensus, exec)),
      reasoning: consensusReasoning(consensus, gap, exec),
      details: {
        rule: 'consensus',
        forecasters: consensus.forecasters,
        withRecord: consensus.withRecord,
        totalWeight: round4(consensus.totalWeight),
        recordQuality: consensus.recordQuality === null ? null : round4(consensus.recordQuality),
        consensusDays: settings.consensusDays,
        // Aggregates only: the alert is shown to everyone, and the forecasts of an open market stay
        // their authors' own (a list of probabilities, even without user ids, gives them away in a
        // market with few forecasters).
        ...priceDetails(market, exec, gap, settings),
      },
    }),
  };
}

interface CheckedEvent {
  check: EventCheck;
  markets: { market: MispricingMarket; exec: ExecutablePrices | null }[];
}

function evaluateEvent(market: MispricingMarket, exec: ExecutablePrices | null, event: CheckedEvent | undefined, settings: MispricingSettings): Evaluation {
  const fair = event?.check.fairValues.get(market.id);
  if (!event || fair === undefined) return { gap: 'no_fair_value', canOpen: false };
  if (!exec) return { gap: 'no_price', canOpen: false };
  const { check } = event;
  return {
    gap: priceGap(fair, exec, settings.feeRate),
    canOpen: check.triggered,
    content: (gap) => ({
      marketId: market.id,
      source: 'event_consistency',
      currentPrice: toFixed4(gap.price),
      fairValue: toFixed4(fair),
      deviation: toFixed4(gap.deviation),
      confidence: toFixed4(eventConfidence(check, exec, settings.threshold)),
      reasoning: eventReasoning(check, market.eventTitle, fair, gap, exec),
      details: {
        rule: 'event_consistency',
        eventId: market.eventId,
        eventTitle: market.eventTitle,
        direction: check.direction,
        markets: check.markets,
        sumAsks: check.sumAsks,
        sumBids: check.sumBids,
        sumMids: check.sumMids,
        edge: check.edge,
        outcomes: event.markets.map(({ market: m, exec: e }) => ({ marketId: m.id, question: m.question, bid: e?.bid ?? null, ask: e?.ask ?? null, mid: e?.mid ?? null })),
        ...priceDetails(market, exec, gap, settings),
      },
    }),
  };
}

/** The negative-risk events among the open markets, each checked once (rule 2). */
function checkEvents(markets: readonly MispricingMarket[], execs: Map<number, ExecutablePrices | null>, settings: MispricingSettings): Map<string, CheckedEvent> {
  const groups = new Map<string, MispricingMarket[]>();
  for (const m of markets) {
    if (m.state !== 'open' || !m.eventId || !m.negRisk) continue;
    groups.set(m.eventId, [...(groups.get(m.eventId) ?? []), m]);
  }
  const events = new Map<string, CheckedEvent>();
  for (const [eventId, group] of groups) {
    const members = group.map((market) => ({ market, exec: execs.get(market.id) ?? null }));
    const check = checkEvent(
      members.map(({ market, exec }) => ({ marketId: market.id, negRisk: market.negRisk, negRiskAugmented: market.negRiskAugmented, exec })),
      settings,
    );
    events.set(eventId, { check, markets: members });
  }
  return events;
}

/**
 * predictions.mispricing: in one transaction (runs serialized by an advisory lock), evaluates each
 * market (recent forecasts, negative-risk events, open alerts) with both fair-value sources and opens,
 * refreshes or closes its alerts (decideAlert); then fans each new alert out to the followers of the
 * market or its category. A retried run opens nothing twice (the open alerts are read first) and
 * notifies once (alerts are marked notified; the fan-out's job ids and dedupe keys cover a crash between).
 */
export async function runMispricing(
  deps: { dataSource: DataSource; queues: JobQueues; clock: Clock },
  settings: MispricingRunSettings,
): Promise<MispricingRunOutcome> {
  const now = deps.clock.now();
  const since = new Date(now.getTime() - settings.consensusDays * DAY_MS);
  const counts = await deps.dataSource.transaction(async (manager) => {
    await lockMispricingRun(manager);
    const markets = await mispricingMarkets(manager, now, since, settings.minForecasters);
    const open = await openMispricingAlerts(manager);
    const openBy = new Map<string, OpenMispricingAlert>(open.map((a) => [`${a.marketId}:${a.source}`, a]));
    const forecasts = await consensusForecasts(
      manager,
      markets.filter((m) => m.state === 'open').map((m) => m.id),
      since,
      now,
    );
    const execs = new Map(markets.map((m) => [m.id, executablePrices(m.quote)]));
    const events = checkEvents(markets, execs, settings);
    const result = { markets: markets.length, events: [...events.values()].filter((e) => e.check.eligible).length, opened: 0, refreshed: 0, closed: 0 };

    for (const market of markets) {
      const exec = execs.get(market.id) ?? null;
      const evaluations: Record<MispricingSource, Evaluation> = {
        consensus: evaluateConsensus(market, exec, forecasts, settings),
        event_consistency: evaluateEvent(market, exec, market.eventId ? events.get(market.eventId) : undefined, settings),
      };
      for (const source of ['consensus', 'event_consistency'] as const) {
        const evaluation = evaluations[source];
        const current = openBy.get(`${market.id}:${source}`) ?? null;
        const decision: AlertDecision = decideAlert(
          { open: current, market: market.state, gap: evaluation.gap, canOpen: evaluation.canOpen },
          settings.threshold,
        );
        const gap = typeof evaluation.gap === 'object' ? evaluation.gap : null;
        const closing = (reason: string) => ({ reason, deviation: gap?.deviation ?? null, price: gap?.price ?? null });
        switch (decision.action) {
          case 'none':
            break;
          case 'open':
            await insertMispricingAlert(manager, evaluation.content!(gap!), now);
            result.opened++;
            break;
          case 'keep':
            if (await refreshMispricingAlert(manager, current!.id, evaluation.content!(gap!))) result.refreshed++;
            break;
          case 'close':
            await closeMispricingAlert(manager, current!.id, now, closing(decision.reason));
            result.closed++;
            break;
          case 'replace':
            await closeMispricingAlert(manager, current!.id, now, closing('side_flipped'));
            result.closed++;
            await insertMispricingAlert(manager, evaluation.content!(gap!), now);
            result.opened++;
            break;
        }
      }
    }
    return result;
  });
  const notified = await notifyNewMispricingAlerts(deps);
  return { ...counts, notified };
}

/** In-app activity type of a mispricing notification. */
export const MISPRICING_ACTIVITY_TYPE = 'PREDICTION_MISPRICING';

/** The market page a notification opens. */
export const predictionMarketPath = (marketId: number) => `/dashboard/predictions/markets/${marketId}`;

/** The notification of a new alert: the question, which way and by how much, the alert's own sentence. */
export function mispricingNotificationContent(alert: MispricingAlertToNotify): NotificationContent & { dedupeKey: string } {
  const deviation = Number(alert.deviation);
  const way = deviation > 0 ? 'cheap' : 'rich';
  const source = alert.source === 'consensus' ? "our forecasters' consensus" : "the event's other outcomes";
  const question = alert.question.length > 140 ? `${alert.question.slice(0, 139)}…` : alert.question;
  return {
    title: `${question}${/[?.!]$/.test(question) ? ' ' : ': '}YES looks ${formatPoints(deviation)} points ${way}`.slice(0, 200),
    message: `${alert.reasoning} Fair value from ${source}; confidence ${Math.round(Number(alert.confidence) * 100)} %.`.slice(0, 2000),
    type: 'info',
    activityType: MISPRICING_ACTIVITY_TYPE,
    exchangeId: null,
    symbolId: null,
    details: {
      alertId: alert.id,
      marketId: alert.marketId,
      category: alert.category,
      fairValueSource: alert.source,
      fairValue: alert.fairValue,
      currentPrice: alert.currentPrice,
      deviation: alert.deviation,
      confidence: alert.confidence,
      url: predictionMarketPath(alert.marketId),
      importance: importanceOf('info'),
    },
    dedupeKey: `predictions:mispricing:${alert.id}`,
  };
}

/** Push: opens the market page; a newer alert of the market replaces an undelivered one; kept an hour (prices move). */
export function mispricingPushOptions(alert: Pick<MispricingAlertToNotify, 'marketId'>): PushOptions {
  return { ttlSeconds: 3600, urgency: 'normal', topic: `pm-mispricing-${alert.marketId}`.slice(0, 32), url: predictionMarketPath(alert.marketId) };
}

/**
 * Fans each open alert not notified yet out to the followers of its market or category
 * (fanOutToFollowers: keyset batches as notifications.deliver jobs, ids and dedupe key from the alert
 * id, so a repeat adds and delivers nothing twice), then marks it notified.
 */
export async function notifyNewMispricingAlerts(deps: { dataSource: DataSource; queues: JobQueues; clock: Clock }): Promise<MispricingRunOutcome['notified']> {
  const total = { alerts: 0, batches: 0, users: 0 };
  for (const alert of await alertsAwaitingNotification(deps.dataSource)) {
    const result = await fanOutToFollowers(deps, {
      audience: predictionFollowersAudience(alert.marketId, alert.category),
      notification: mispricingNotificationContent(alert),
      push: mispricingPushOptions(alert),
      email: true,
    });
    await markMispricingAlertNotified(deps.dataSource, alert.id, deps.clock.now(), result);
    total.alerts++;
    total.batches += result.batches;
    total.users += result.users;
  }
  return total;
}

/**
 * The predictions.mispricing handler (thin): a schedule tick runs when it claims its slot of
 * PREDICTIONS_MISPRICING_MINUTES; a run queued by a sync (no tick) always runs.
 */
export function createMispricingHandlers(deps: { config: () => PredictionsConfig }): JobHandler[] {
  return [
    defineHandler('predictions.mispricing', async ({ tick }, context) => {
      const config = deps.config();
      if (tick && !(await claimMispricingSlot(context.redis, context.queues.prefix, context.clock.now(), config.PREDICTIONS_MISPRICING_MINUTES))) {
        return { status: 'not-due' };
      }
      const outcome = await runMispricing(context, mispricingSettingsOf(config));
      if (outcome.opened || outcome.closed) context.logger.info({ ...outcome }, 'predictions: mispricing alerts changed');
      return { status: 'ran', ...outcome };
    }),
  ];
}

import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import type Redis from 'ioredis';
import type { JobContext } from '../runtime/job-handler';
import { dispatchNotifications, writeNotifications, type NotificationRequest, type NotifyDeps, type WrittenNotification } from '../notifications/notify';
import { importanceOf } from '../notifications/notification-content';
import {
  addressLabels,
  claimDigestAlerts,
  insertWhaleAlerts,
  lockBlockAlertCandidates,
  markWhaleAlertsSent,
  pendingDigestAlerts,
  retractionNotifications,
  WHALE_ACTIVITY_TYPE,
  whaleAlertDedupeKey,
  whaleDigestDedupeKey,
  type PendingWhaleAlert,
  type WhaleAlertCandidate,
  type WhaleAlertInsert,
} from './whales-alerts.store';
import { explorerTxUrl, liveTransfersOfBlock } from './whales-read.store';
import type { WhaleTransferView } from './whales.shapes';

type PublicLabel = { label: string | null; addressType: string | null; exchangeName: string | null };

/** Transfers listed in one digest notification before "and N more". */
export const WHALE_DIGEST_MAX_LINES = 20;

// ---- pure: what an alert says --------------------------------------------------------------------

/** 0xabcdef…1234 -> 0xab…34 style short form: 0xabcd…ef12. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** $17.1M, $950K, $2.3B, $512.40: compact USD for a sentence. */
export function compactUsd(value: string): string {
  const d = new Decimal(value);
  const abs = d.abs();
  const units: [Decimal.Value, string][] = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (abs.gte(size)) return `${d.isNeg() ? '-' : ''}$${abs.div(size).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toFixed()}${suffix}`;
  }
  return `${d.isNeg() ? '-' : ''}$${abs.toFixed(2)}`;
}

/** 5000 -> '5,000'; 1234.56789 -> '1,234.5679' (at most 4 decimals, trailing zeros dropped). */
export function formatAmount(value: string): string {
  const [whole, fraction] = new Decimal(value).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed().split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/** alert_type of a transfer type (the spec's words: large_transfer for a plain transfer). */
export const alertTypeOf = (transactionType: string) => (transactionType === 'transfer' ? 'large_transfer' : transactionType);

/** Longest an immediate alert's message can be (whaleAlertMessage): short enough for a phone's toast and lock screen. */
export const WHALE_ALERT_MESSAGE_MAX = 140;
/** Longest a party of the sentence reads ("Binance 14 (my cold wallet)"); longer labels end in "…". */
const PARTY_MAX = 32;
const SYMBOL_MAX = 12;

const DIRECTION_SHORT: Record<string, string> = {
  exchange_inflow: 'exchange inflow',
  exchange_outflow: 'exchange outflow',
  mint: 'mint',
  burn: 'burn',
  transfer: 'wallet to wallet',
};

/** `text` cut to `max` characters, the cut marked with "…". */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * How an address reads in a message: its public label, with the viewer's own in brackets; else the
 * viewer's label with the short address; else "unknown wallet 0x12ab…9f0e". At most 32 characters.
 */
export function addressDisplay(address: string | null, known: PublicLabel | undefined, customLabel: string | null): string {
  if (address === null) return 'a new contract';
  const publicName = known?.label ?? known?.exchangeName ?? null;
  if (publicName) return customLabel ? `${clip(publicName, 16)} (${clip(customLabel, PARTY_MAX - Math.min(publicName.length, 16) - 3)})` : clip(publicName, PARTY_MAX);
  const short = shortAddress(address);
  return customLabel ? `${clip(customLabel, PARTY_MAX - short.length - 3)} (${short})` : `unknown wallet ${short}`;
}

/** An amount for a sentence: '1,250', '0.02', '312,203.112'; from a billion up '1.2B', '3.4T', then '1.2e+18'. */
function sentenceAmount(value: string): string {
  const d = new Decimal(value);
  if (d.abs().lt(1e9)) return formatAmount(value);
  if (d.abs().lt(1e12)) return `${d.div(1e9).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toFixed()}B`;
  if (d.abs().lt(1e15)) return `${d.div(1e12).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toFixed()}T`;
  return d.toExponential(1);
}

/**
 * The alert as one short sentence (stored in whale_alerts.message, the notification's message and
 * a digest's line): "1,250 ETH ($3.9M) Binance 14 → unknown wallet 0x12ab…9f0e · exchange outflow".
 * At most WHALE_ALERT_MESSAGE_MAX characters; the explorer link travels in the notification's
 * details (`link`), not in the text. The part before " · " is what a correction repeats.
 */
export function whaleAlertMessage(c: WhaleAlertCandidate, labels: Map<string, PublicLabel>): string {
  const token = clip(c.tokenSymbol ?? (c.token ? shortAddress(c.token) : 'ETH'), SYMBOL_MAX);
  const amount = c.amount === null ? `an unknown amount of ${token}` : `${sentenceAmount(c.amount)} ${token}`;
  const usd = c.usdValue === null ? '(no USD price)' : `(${compactUsd(c.usdValue)})`;
  const custom = (address: string | null) => (address === c.address ? c.customLabel : null);
  const from = addressDisplay(c.from, labels.get(c.from), custom(c.from));
  const to = addressDisplay(c.to, c.to === null ? undefined : labels.get(c.to), custom(c.to));
  return clip(`${amount} ${usd} ${from} → ${to} · ${DIRECTION_SHORT[c.transactionType] ?? c.transactionType}`, WHALE_ALERT_MESSAGE_MAX);
}

/** incoming | outgoing | self, relative to the watched address. */
export function directionOf(c: Pick<WhaleAlertCandidate, 'from' | 'to' | 'address'>): string {
  if (c.from === c.address && c.to === c.address) return 'self';
  return c.to === c.address ? 'incoming' : 'outgoing';
}

function alertNotification(alertId: number, insert: WhaleAlertInsert, userId: number): NotificationRequest {
  const c = insert.candidate;
  return {
    recipients: [userId],
    dedupeKey: whaleAlertDedupeKey(alertId),
    channels: { push: { ttlSeconds: 3600, urgency: 'high', topic: null, url: `/dashboard/whales/addresses/${c.address}` }, email: { to: 'opted-in' }, telegram: null },
    content: {
      // The message is the whole sentence (amount, USD, from -> to, direction); a toast shows "title: message", so the title adds nothing to repeat.
      title: 'Whale alert',
      message: insert.message.slice(0, 2000),
      type: 'warning',
      activityType: WHALE_ACTIVITY_TYPE,
      details: {
        kind: 'whale_alert',
        alertId,
        address: c.address,
        txHash: c.txHash,
        logIndex: c.logIndex < 0 ? null : c.logIndex,
        token: c.token,
        tokenSymbol: c.tokenSymbol,
        amount: c.amount,
        usdValue: c.usdValue,
        transactionType: c.transactionType,
        direction: insert.direction,
        explorerUrl: explorerTxUrl(c.txHash),
        // Shown as a link under the message (in the app and in the email): the message stays one short sentence.
        link: { href: explorerTxUrl(c.txHash), label: 'View the transaction on Etherscan' },
        importance: importanceOf('warning'),
      },
    },
  };
}

// ---- whales.alerts: one recorded block ----------------------------------------------------------

export type WhaleBlockAlertsOutcome = { status: 'gone' } | { status: 'alerted'; candidates: number; inserted: number; sent: number; pending: number };

/**
 * The alerts of one recorded block: its transfers that meet a watch's threshold
 * (lockBlockAlertCandidates) become whale_alerts rows, at most once per user, address and
 * transfer (a retry or a second worker inserts nothing). Immediate ones are written with their
 * notification and marked sent in the same transaction, then dispatched after the commit; hourly
 * and daily ones wait for their digest. A block a reorg removed meanwhile alerts nothing.
 */
export async function alertWhaleBlock(
  deps: NotifyDeps & Pick<JobContext, 'clock'>,
  input: { chain: string; hash: string; globalUsdThreshold: number; /** The scanner's filter hits of the block (else read from its rows). */ addresses?: readonly string[] },
): Promise<WhaleBlockAlertsOutcome> {
  const now = deps.clock.now();
  const result = await deps.dataSource.transaction(async (manager) => {
    const candidates = await lockBlockAlertCandidates(manager, input.chain, input.hash, input.globalUsdThreshold, input.addresses);
    if (candidates === null) return null;
    const labels = await addressLabels(manager, candidates.flatMap((c) => (c.to ? [c.from, c.to] : [c.from])));
    const inserts: WhaleAlertInsert[] = candidates.map((candidate) => ({
      candidate,
      chain: input.chain,
      alertType: alertTypeOf(candidate.transactionType),
      direction: directionOf(candidate),
      message: whaleAlertMessage(candidate, labels),
    }));
    const inserted = await insertWhaleAlerts(manager, inserts, now);
    const immediate = inserted.filter((a) => a.frequency === 'immediate');
    const written = await writeNotifications(
      manager,
      immediate.map((a) => alertNotification(a.id, a.insert, a.userId)),
      { now },
    );
    await markWhaleAlertsSent(manager, immediate.map((a) => a.id), now);
    return { candidates: candidates.length, inserted: inserted.length, immediate: immediate.length, written };
  });
  if (!result) return { status: 'gone' };
  await dispatchNotifications(deps, result.written);
  return { status: 'alerted', candidates: result.candidates, inserted: result.inserted, sent: result.immediate, pending: result.inserted - result.immediate };
}

/** After a rollback committed: publishes (and pushes) the correction notifications it wrote. */
export async function dispatchWhaleRetractions(deps: NotifyDeps, chain: string, fromBlock: number): Promise<number> {
  const written: WrittenNotification[] = await retractionNotifications(deps.dataSource, chain, fromBlock);
  // Only the corrections of this rollback: rows read back were written by it or an earlier one of the same blocks.
  await dispatchNotifications(deps, written);
  return written.length;
}

// ---- live feed -------------------------------------------------------------------------------------

/** Redis channel of the live feed: every api instance relays it to its open streams as SSE `whale`. */
export const whaleTransfersChannel = (prefix: string) => `${prefix}:whales`;

/** Publishes the block's whale transfers (and those touching a watched address) on the live channel. */
export async function publishWhaleTransfers(redis: Redis, prefix: string, views: readonly WhaleTransferView[]): Promise<number> {
  if (!views.length) return 0;
  const pipeline = redis.pipeline();
  for (const view of views) pipeline.publish(whaleTransfersChannel(prefix), JSON.stringify(view));
  const results = await pipeline.exec();
  const failed = results?.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
  return views.length;
}

/** The live views of a recorded block, published. */
export async function publishBlockTransfers(deps: Pick<JobContext, 'dataSource' | 'redis' | 'queues'>, chain: string, hash: string): Promise<number> {
  return publishWhaleTransfers(deps.redis, deps.queues.prefix, await liveTransfersOfBlock(deps.dataSource, chain, hash));
}

// ---- digests -------------------------------------------------------------------------------------

interface DigestGroup {
  key: string;
  userId: number;
  frequency: 'hourly' | 'daily';
  /** Human words for the period: "14:00–15:00 UTC" or "Tuesday 4 March (Europe/Paris)". */
  period: string;
  alerts: PendingWhaleAlert[];
}

/**
 * Which digest a pending alert belongs to at `now`, if its period is over: hourly digests close at
 * each :00 UTC (the alerts written before it), daily ones at the local midnight of the watch's
 * time zone. Null: its period is still open.
 */
export function digestOf(alert: PendingWhaleAlert, now: Date): Omit<DigestGroup, 'alerts'> | null {
  if (alert.frequency === 'hourly') {
    const boundary = DateTime.fromJSDate(now, { zone: 'UTC' }).startOf('hour');
    if (alert.createdAt.getTime() >= boundary.toMillis()) return null;
    const start = DateTime.fromJSDate(alert.createdAt, { zone: 'UTC' }).startOf('hour');
    // Everything before the boundary goes in the one digest closing at it (an alert held over from an earlier hour too).
    const end = boundary;
    return {
      key: `hourly:${alert.userId}:${end.toFormat("yyyy-LL-dd'T'HH")}`,
      userId: alert.userId,
      frequency: 'hourly',
      period: `until ${end.toFormat('HH:mm')} UTC${start.plus({ hours: 1 }).equals(end) ? ` (${start.toFormat('HH:mm')}–${end.toFormat('HH:mm')})` : ''}`,
    };
  }
  const zone = DateTime.now().setZone(alert.timeZone).isValid ? alert.timeZone : 'UTC';
  const midnight = DateTime.fromJSDate(now, { zone }).startOf('day');
  if (alert.createdAt.getTime() >= midnight.toMillis()) return null;
  const day = midnight.minus({ days: 1 });
  return {
    key: `daily:${alert.userId}:${midnight.toISODate()}:${zone}`.slice(0, 80),
    userId: alert.userId,
    frequency: 'daily',
    period: `${day.toFormat('cccc d LLLL')} (${zone})`,
  };
}

function digestRequest(group: DigestGroup): NotificationRequest {
  const count = group.alerts.length;
  const total = group.alerts.reduce((sum, a) => (a.usdValue === null ? sum : sum.plus(a.usdValue)), new Decimal(0));
  const shown = group.alerts.slice(0, WHALE_DIGEST_MAX_LINES).map((a) => `• ${a.message}`);
  const more = count - shown.length;
  const header = `${count} whale transfer${count === 1 ? '' : 's'} on your watched addresses, ${group.period}${total.gt(0) ? `, ${compactUsd(total.toFixed(2))} in total` : ''}:`;
  return {
    recipients: [group.userId],
    dedupeKey: whaleDigestDedupeKey(group.key),
    channels: { push: { ttlSeconds: 6 * 3600, urgency: 'normal', topic: null, url: '/dashboard/whales' }, email: { to: 'opted-in' }, telegram: null },
    content: {
      title: `Whale digest (${group.frequency}): ${count} transfer${count === 1 ? '' : 's'}`.slice(0, 200),
      message: [header, ...shown, ...(more > 0 ? [`and ${more} more on the whales page`] : [])].join('\n').slice(0, 2000),
      type: 'info',
      activityType: WHALE_ACTIVITY_TYPE,
      details: {
        kind: 'whale_digest',
        digestKey: group.key,
        frequency: group.frequency,
        alertIds: group.alerts.map((a) => a.id),
        txHashes: group.alerts.map((a) => a.txHash),
        importance: importanceOf('info'),
      },
    },
  };
}

export interface WhaleDigestsOutcome {
  digests: number;
  alerts: number;
}

/**
 * whales.digests: sends every digest whose period is over, one notification per user and period
 * listing its pending alerts. Idempotent: the alerts are claimed (pending -> sent with the digest
 * key) in the transaction that writes the notification, whose dedupe key is the digest key; a
 * second run, or a concurrent one, finds them claimed.
 */
export async function sendWhaleDigests(deps: NotifyDeps & Pick<JobContext, 'clock'>): Promise<WhaleDigestsOutcome> {
  const now = deps.clock.now();
  const groups = new Map<string, DigestGroup>();
  for (const alert of await pendingDigestAlerts(deps.dataSource, now)) {
    const digest = digestOf(alert, now);
    if (!digest) continue;
    const group = groups.get(digest.key) ?? { ...digest, alerts: [] };
    group.alerts.push(alert);
    groups.set(digest.key, group);
  }
  let digests = 0;
  let alerts = 0;
  for (const group of groups.values()) {
    const written = await deps.dataSource.transaction(async (manager) => {
      const claimed = new Set(await claimDigestAlerts(manager, group.alerts.map((a) => a.id), group.key, now));
      const mine = group.alerts.filter((a) => claimed.has(a.id));
      if (!mine.length) return [];
      alerts += mine.length;
      return writeNotifications(manager, [digestRequest({ ...group, alerts: mine })], { now });
    });
    if (written.length) digests++;
    await dispatchNotifications(deps, written);
  }
  return { digests, alerts };
}

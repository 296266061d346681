import Decimal from 'decimal.js';
import type { DataSource } from 'typeorm';
import type { NotificationType } from '@tickerbell/entities';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import { fanOutToFollowers } from '../notifications/fan-out';
import { importanceOf, type NotificationContent, type PushOptions } from '../notifications/notification-content';
import { filingIndexUrl } from './edgar-index.parse';
import {
  INSIDER_ALERT_MAX_AGE_HOURS,
  computeInsiderAnalytics,
  formatUsd,
  groupByInsider,
  groupPattern,
  isBuy,
  isFreshFiling,
  namedTrades,
  officerBuysByFiling,
  patternPhrase,
  type InsiderLine,
} from './insiders-analytics';
import { insiderAlertAudience, insiderCompany, loadInsiderLines, storedInsiderAnalytics, type InsiderCompanyKey } from './insiders-analytics.store';
import { insidersAnalysisDate } from './insiders-recompute';
import type { InsiderAlertKind } from './insiders.jobs';
import { INSIDER_WINDOW_DAYS, type InsiderAlertLevel, type TraderPattern } from './insiders.shapes';

/** Followers per notifications.deliver job of an insider alert. */
export const INSIDER_FAN_OUT_BATCH_SIZE = 1000;
/** Filings a message links to before "and N more" (all are on the company page). */
const MAX_LINKED_FILINGS = 5;

/** The activity type of every insider notification (notifications.activity_type). */
export const INSIDER_ACTIVITY_TYPE = 'INSIDER_TRADE';

/** One event, with what its notification says. */
export interface InsiderAlertSource {
  company: InsiderCompanyKey;
  kind: InsiderAlertKind;
  key: string;
  /** The lines the notification names (the cluster's purchases, the filing's purchases, the reason's lines). */
  lines: InsiderLine[];
  patterns: Map<string, TraderPattern | null>;
  alertLevel: InsiderAlertLevel;
  /** unusual_activity: the stored alertReason. */
  alertReason: string | null;
}

export function insiderAlertDedupeKey(cik: string, kind: InsiderAlertKind, key: string): string {
  return `insiders:${cik}:${kind}:${key}`;
}

/** The dashboard company page (web: /dashboard/insiders/companies/:ticker, the CIK for an issuer without a ticker). */
export function insiderCompanyPath(company: Pick<InsiderCompanyKey, 'ticker' | 'cik'>): string {
  return `/dashboard/insiders/companies/${encodeURIComponent(company.ticker ?? company.cik)}`;
}

function companyDisplay(company: InsiderCompanyKey): string {
  return company.ticker ? `${company.name} (${company.ticker})` : company.name;
}

function shortName(company: InsiderCompanyKey): string {
  return company.ticker ?? company.name;
}

/** The filing's index page on sec.gov: as stored, else built from the issuer's CIK and the accession. */
export function secFilingUrl(line: Pick<InsiderLine, 'secUrl' | 'accessionNumber'>, issuerCik: string): string {
  return line.secUrl ?? filingIndexUrl(issuerCik, line.accessionNumber);
}

/** Whether the lines were made under a 10b5-1 plan, in words. */
export function planPhrase(lines: readonly Pick<InsiderLine, 'rule10b5One'>[]): string {
  const flags = lines.map((l) => l.rule10b5One);
  if (flags.length && flags.every((f) => f === true)) return 'under a 10b5-1 plan';
  if (flags.some((f) => f === true)) return 'partly under a 10b5-1 plan';
  if (flags.every((f) => f === false)) return 'not under a 10b5-1 plan';
  return 'no 10b5-1 plan stated';
}

/** 12345.5 -> '12,345.5'. */
function formatShares(value: Decimal): string {
  const [whole, fraction] = value.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed().split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

function filingLinks(source: InsiderAlertSource): { accessionNumber: string; url: string }[] {
  const seen = new Map<string, string>();
  for (const line of source.lines) if (!seen.has(line.accessionNumber)) seen.set(line.accessionNumber, secFilingUrl(line, source.company.cik));
  return [...seen].map(([accessionNumber, url]) => ({ accessionNumber, url }));
}

function filingsSentence(links: { url: string }[]): string {
  if (links.length === 1) return `Filing on sec.gov: ${links[0].url}`;
  const shown = links.slice(0, MAX_LINKED_FILINGS).map((l) => l.url);
  const more = links.length - shown.length;
  return `Filings on sec.gov: ${shown.join(' ')}${more > 0 ? ` and ${more} more on the company page` : ''}`;
}

function titleAndMessage(source: InsiderAlertSource): { title: string; message: string } {
  const { company, lines, patterns } = source;
  const links = filingLinks(source);
  if (source.kind === 'cluster_buy') {
    const groups = groupByInsider(lines);
    const total = formatUsd(groups.reduce((a, g) => a.plus(g.value), new Decimal(0)));
    return {
      title: `${shortName(company)}: cluster buy, ${groups.length} insiders bought ${total} in ${INSIDER_WINDOW_DAYS} days`,
      message:
        `${groups.length} insiders of ${companyDisplay(company)} bought ${total} on the open market in ${INSIDER_WINDOW_DAYS} days: ` +
        `${namedTrades(groups, (g) => ` (${patternPhrase(groupPattern(g.lines, patterns))}, ${planPhrase(g.lines)})`)}. ${filingsSentence(links)}`,
    };
  }
  if (source.kind === 'officer_buy') {
    const [group] = groupByInsider(lines);
    const shares = lines.reduce((a, l) => a.plus(new Decimal(l.shares).abs()), new Decimal(0));
    const price = shares.isZero() ? null : group.value.div(shares).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
    const days = [...new Set(group.dates)].sort();
    const when = days.length === 1 ? `on ${days[0]}` : `from ${days[0]} to ${days[days.length - 1]}`;
    const pattern = groupPattern(lines, patterns);
    const patternText =
      pattern === 'opportunistic'
        ? 'an opportunistic trade: not in a month they traded in each of the last 3 years'
        : pattern === 'routine'
          ? 'a routine trade: they traded in the same month in each of the last 3 years'
          : 'not classified as routine or opportunistic: under 3 years of trading history';
    return {
      title: `${shortName(company)}: ${group.role} ${group.name} bought ${formatUsd(group.value)} on the open market`,
      message:
        `${group.name} (${group.role}) bought ${formatShares(shares)} shares of ${companyDisplay(company)} for ${formatUsd(group.value)} ` +
        `on the open market ${when}${price ? `, at $${price} a share on average` : ''}; ${planPhrase(lines)}; ${patternText}. ${filingsSentence(links)}`,
    };
  }
  return {
    title: `${shortName(company)}: unusual insider activity (${source.alertLevel})`,
    message: `${companyDisplay(company)}: ${source.alertReason ?? 'unusual insider activity.'} ${filingsSentence(links)}`,
  };
}

/** The notification of an event: title, a message that explains itself, details with the filings' links. */
export function insiderNotificationContent(source: InsiderAlertSource): NotificationContent & { dedupeKey: string } {
  const type: NotificationType = source.kind === 'cluster_buy' || source.alertLevel === 'high' ? 'warning' : 'info';
  const { title, message } = titleAndMessage(source);
  const value = source.lines.reduce((a, l) => a.plus(l.value === null ? 0 : new Decimal(l.value).abs()), new Decimal(0));
  return {
    title: title.slice(0, 200),
    message: message.slice(0, 2000),
    type,
    activityType: INSIDER_ACTIVITY_TYPE,
    exchangeId: null,
    symbolId: source.company.ticker,
    details: {
      kind: source.kind,
      key: source.key,
      companyCik: source.company.cik,
      ticker: source.company.ticker,
      companyName: source.company.name,
      companyUrl: insiderCompanyPath(source.company),
      alertLevel: source.alertLevel,
      value: value.toFixed(2),
      transactionIds: source.lines.map((l) => l.id),
      filings: filingLinks(source),
      importance: importanceOf(type),
    },
    dedupeKey: insiderAlertDedupeKey(source.company.cik, source.kind, source.key),
  };
}

/** Push: opens the company page; a newer cluster or unusual alert of the company replaces an undelivered one (officer buys each stay). */
export function insiderPushOptions(source: Pick<InsiderAlertSource, 'company' | 'kind'>): PushOptions {
  return {
    ttlSeconds: INSIDER_ALERT_MAX_AGE_HOURS * 3600,
    urgency: source.kind === 'cluster_buy' ? 'high' : 'normal',
    topic: source.kind === 'officer_buy' ? null : `ins-${source.company.cik}-${source.kind === 'cluster_buy' ? 'cluster' : 'unusual'}`,
    url: insiderCompanyPath(source.company),
  };
}

export type InsiderNotifyOutcome = { status: 'queued'; batches: number; users: number } | { status: 'skipped'; reason: string };

const DAY_MS = 86_400_000;

/**
 * The event as it stands now, or why it no longer holds: a cluster_buy whose episode (same first buy
 * date) is still on today; an officer_buy whose filing still has officer/director purchases in the
 * window (an amendment may have replaced them); an unusual_activity whose day's row is still
 * unusual. Each needs a fresh filing (or, for unusual activity, a day at most 3 days old).
 */
async function currentEvent(
  deps: { dataSource: DataSource; clock: Clock },
  company: InsiderCompanyKey,
  kind: InsiderAlertKind,
  key: string,
): Promise<InsiderAlertSource | { skipped: string }> {
  const now = deps.clock.now();
  const today = insidersAnalysisDate(now);
  if (kind === 'unusual_activity') {
    const row = await storedInsiderAnalytics(deps.dataSource, company.id, key);
    if (!row || !row.isUnusualActivity) return { skipped: 'no longer unusual' };
    if ((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${key}T00:00:00Z`)) / DAY_MS > INSIDER_ALERT_MAX_AGE_HOURS / 24) return { skipped: 'stale' };
    const result = computeInsiderAnalytics({ analysisDate: key, lines: await loadInsiderLines(deps.dataSource, company.id, key) });
    const ids = new Set(row.reasonTransactionIds);
    const lines = result.windowLines.filter((l) => ids.has(l.id));
    return { company, kind, key, lines, patterns: result.traderPatterns, alertLevel: row.alertLevel, alertReason: row.alertReason };
  }
  const result = computeInsiderAnalytics({ analysisDate: today, lines: await loadInsiderLines(deps.dataSource, company.id, today) });
  if (kind === 'cluster_buy') {
    if (!result.cluster || result.cluster.firstBuyDate !== key) return { skipped: 'no longer a cluster buy' };
    const buys = result.windowLines.filter(isBuy);
    if (!buys.some((l) => isFreshFiling(l, now))) return { skipped: 'stale' };
    return { company, kind, key, lines: buys, patterns: result.traderPatterns, alertLevel: 'high', alertReason: null };
  }
  const lines = officerBuysByFiling(result.windowLines).get(key);
  if (!lines) return { skipped: 'no officer or director purchase in the filing' };
  if (!lines.some((l) => isFreshFiling(l, now))) return { skipped: 'stale' };
  return { company, kind, key, lines, patterns: result.traderPatterns, alertLevel: result.view.alertLevel, alertReason: null };
}

/**
 * insiders.notify: fans an event out to the company's followers whose settings ask for it
 * (insiderAlertAudience; deleted accounts are never in an audience), as notifications.deliver
 * batches deduplicated per user on `insiders:<cik>:<kind>:<key>`. Skips an event that no longer holds.
 */
export async function notifyInsiderEvent(
  deps: { dataSource: DataSource; queues: JobQueues; clock: Clock },
  payload: { companyId: number; kind: InsiderAlertKind; key: string },
  batchSize = INSIDER_FAN_OUT_BATCH_SIZE,
): Promise<InsiderNotifyOutcome> {
  const company = await insiderCompany(deps.dataSource, payload.companyId);
  if (!company) return { status: 'skipped', reason: 'no such company' };
  const source = await currentEvent(deps, company, payload.kind, payload.key);
  if ('skipped' in source) return { status: 'skipped', reason: source.skipped };
  const value = source.lines.reduce((a, l) => a.plus(l.value === null ? 0 : new Decimal(l.value).abs()), new Decimal(0));
  const clusterBuy = source.kind === 'unusual_activity' && (await storedInsiderAnalytics(deps.dataSource, company.id, source.key))?.isClusterBuy === true;
  const { batches, users } = await fanOutToFollowers(deps, {
    audience: insiderAlertAudience(company.id, source.kind, { value: value.toFixed(2), clusterBuy }),
    notification: insiderNotificationContent(source),
    push: insiderPushOptions(source),
    email: true,
    batchSize,
  });
  return { status: 'queued', batches, users };
}

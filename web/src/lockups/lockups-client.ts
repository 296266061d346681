// The lockups api (/api/lockups/...): the calendar of IPO lock-up expirations, one event with its
// risk factors and clause, the public next 30 days, and the signed-in user's follows. Shaped as
// @tickerbell/jobs/lockups/shapes; share counts and prices stay decimal strings until drawn.
import {
  LOCKUP_DATA_SOURCES,
  LOCKUP_FOLLOW_KINDS,
  LOCKUP_NOTICE_DAYS,
  LOCKUP_RISK_FACTORS,
  LOCKUP_STATUSES,
  type LockupCalendarQuery,
  type LockupCalendarResponse,
  type LockupDataSource,
  type LockupEarlyReleaseView,
  type LockupEventDetail,
  type LockupEventView,
  type LockupFollowInput,
  type LockupFollowView,
  type LockupNoticeDays,
  type LockupRiskFactorView,
  type LockupSourceStatus,
  type LockupStatus,
} from '@tickerbell/jobs/lockups/shapes';
import { apiRequest } from '../api/client';
import { at, bool, count, countOrNull, decimal, decimalOrNull, fail, list, num, numOrNull, oneOf, record, text, textOrNull } from '../api/answer';
import { sendWithCsrf } from '../accounts/auth-client';
import { formatUsd, formatUsdCompact } from '../format/usd';

export { formatUsd, formatUsdCompact };

/** GET /api/lockups/research: the next 30 days. */
export type LockupResearchResponse = Pick<LockupCalendarResponse, 'from' | 'to' | 'events' | 'source'>;

// ---- Where the screens live ----

export const LOCKUPS_CALENDAR_PATH = '/dashboard/lockups';
export const LOCKUPS_RESEARCH_PATH = '/research/lockups';

export function lockupEventPath(id: number): string {
  return `${LOCKUPS_CALENDAR_PATH}/${id}`;
}

// ---- Parsing ----

function day(value: unknown, where: string): string {
  const s = text(value, where);
  if (!/^\d{4}-\d{2}-\d{2}/.test(s)) fail(where, 'a date YYYY-MM-DD');
  return s.slice(0, 10);
}

function dayOrNull(value: unknown, where: string): string | null {
  return value === null || value === undefined ? null : day(value, where);
}

export function parseFactor(value: unknown, where: string): LockupRiskFactorView {
  const s = record(value, where);
  const k = at(where);
  return {
    name: oneOf(s.name, LOCKUP_RISK_FACTORS, k('name')),
    label: text(s.label, k('label')),
    points: num(s.points, k('points')),
    weight: num(s.weight, k('weight')),
    value: num(s.value, k('value')),
    input: textOrNull(s.input, k('input')),
    source: text(s.source, k('source')),
    known: bool(s.known, k('known')),
  };
}

export function parseSourceStatus(value: unknown, where = 'source'): LockupSourceStatus {
  const s = record(value, where);
  return { mode: oneOf(s.mode, ['live', 'replay'] as const, `${where}.mode`), lastDiscoveryAt: textOrNull(s.lastDiscoveryAt, `${where}.lastDiscoveryAt`) };
}

export function parseEventView(value: unknown, where = 'event'): LockupEventView {
  const s = record(value, where);
  const k = at(where);
  return {
    id: count(s.id, k('id')),
    ticker: text(s.ticker, k('ticker')),
    companyName: text(s.companyName, k('companyName')),
    ipoDate: day(s.ipoDate, k('ipoDate')),
    lockupExpirationDate: dayOrNull(s.lockupExpirationDate, k('lockupExpirationDate')),
    tranche: count(s.tranche, k('tranche')),
    tranches: count(s.tranches, k('tranches')),
    trancheLabel: textOrNull(s.trancheLabel, k('trancheLabel')),
    sharesLockedUp: decimalOrNull(s.sharesLockedUp, k('sharesLockedUp')),
    totalSharesOutstanding: decimalOrNull(s.totalSharesOutstanding, k('totalSharesOutstanding')),
    floatShare: numOrNull(s.floatShare, k('floatShare')),
    ipoPrice: decimalOrNull(s.ipoPrice, k('ipoPrice')),
    currentPrice: decimalOrNull(s.currentPrice, k('currentPrice')),
    marketCap: decimalOrNull(s.marketCap, k('marketCap')),
    vcBacked: bool(s.vcBacked, k('vcBacked')),
    industry: textOrNull(s.industry, k('industry')),
    riskScore: num(s.riskScore, k('riskScore')),
    status: oneOf(s.status, LOCKUP_STATUSES, k('status')),
    dataSource: oneOf(s.dataSource, LOCKUP_DATA_SOURCES, k('dataSource')),
    topFactors: list(s.topFactors, k('topFactors'), parseFactor),
  };
}

function parseEarlyRelease(value: unknown, where: string): LockupEarlyReleaseView {
  const s = record(value, where);
  const k = at(where);
  return {
    description: text(s.description, k('description')),
    priceMultiple: numOrNull(s.priceMultiple, k('priceMultiple')),
    days: countOrNull(s.days, k('days')),
    windowDays: countOrNull(s.windowDays, k('windowDays')),
    sharePct: numOrNull(s.sharePct, k('sharePct')),
    metOn: dayOrNull(s.metOn, k('metOn')),
  };
}

export function parseEventDetail(body: unknown): LockupEventDetail {
  const s = record(body, 'event');
  const k = at('event');
  return {
    ...parseEventView(body, 'event'),
    cik: textOrNull(s.cik, k('cik')),
    lockupDays: countOrNull(s.lockupDays, k('lockupDays')),
    sharesOffered: decimalOrNull(s.sharesOffered, k('sharesOffered')),
    underwriters: list(s.underwriters, k('underwriters'), text),
    boundParties: textOrNull(s.boundParties, k('boundParties')),
    clause: textOrNull(s.clause, k('clause')),
    sourceAccession: textOrNull(s.sourceAccession, k('sourceAccession')),
    sourceUrl: textOrNull(s.sourceUrl, k('sourceUrl')),
    reviewReason: textOrNull(s.reviewReason, k('reviewReason')),
    earlyRelease: list(s.earlyRelease, k('earlyRelease'), parseEarlyRelease),
    factors: list(s.factors, k('factors'), parseFactor),
    prices: list(s.prices, k('prices'), (entry, w) => {
      const p = record(entry, w);
      return { date: day(p.date, `${w}.date`), close: decimal(p.close, `${w}.close`), volume: decimal(p.volume, `${w}.volume`) };
    }),
    pricesSource: textOrNull(s.pricesSource, k('pricesSource')),
    siblings: list(s.siblings, k('siblings'), (entry, w) => {
      const p = record(entry, w);
      return {
        id: count(p.id, `${w}.id`),
        lockupExpirationDate: dayOrNull(p.lockupExpirationDate, `${w}.lockupExpirationDate`),
        sharesLockedUp: decimalOrNull(p.sharesLockedUp, `${w}.sharesLockedUp`),
        tranche: count(p.tranche, `${w}.tranche`),
      };
    }),
  };
}

export function parseCalendar(body: unknown): LockupCalendarResponse {
  const s = record(body, 'calendar');
  return {
    from: day(s.from, 'calendar.from'),
    to: day(s.to, 'calendar.to'),
    events: list(s.events, 'calendar.events', parseEventView),
    review: list(s.review, 'calendar.review', parseEventView),
    industries: list(s.industries, 'calendar.industries', text),
    source: parseSourceStatus(s.source, 'calendar.source'),
  };
}

export function parseResearch(body: unknown): LockupResearchResponse {
  const s = record(body, 'research');
  return {
    from: day(s.from, 'research.from'),
    to: day(s.to, 'research.to'),
    events: list(s.events, 'research.events', parseEventView),
    source: parseSourceStatus(s.source, 'research.source'),
  };
}

function noticeDay(value: unknown, where: string): LockupNoticeDays {
  if (!(LOCKUP_NOTICE_DAYS as readonly unknown[]).includes(value)) fail(where, LOCKUP_NOTICE_DAYS.join(', '));
  return value as LockupNoticeDays;
}

export function parseFollow(value: unknown, where = 'follow'): LockupFollowView {
  const s = record(value, where);
  const k = at(where);
  return {
    id: count(s.id, k('id')),
    kind: oneOf(s.kind, LOCKUP_FOLLOW_KINDS, k('kind')),
    ticker: textOrNull(s.ticker, k('ticker')),
    minRiskScore: numOrNull(s.minRiskScore, k('minRiskScore')),
    noticeDays: list(s.noticeDays, k('noticeDays'), noticeDay),
    createdAt: text(s.createdAt, k('createdAt')),
  };
}

export function parseFollows(body: unknown): LockupFollowView[] {
  return list(body, 'follows', parseFollow);
}

// ---- The calendar's filters and month (in the address bar) ----

export type LockupsView = 'calendar' | 'list';

export interface CalendarFilters {
  minRisk?: number;
  minFloatShare?: number;
  industry?: string;
  vcBacked?: boolean;
}

export interface CalendarState extends CalendarFilters {
  /** YYYY-MM, the month shown. */
  month: string;
  view: LockupsView;
  /** YYYY-MM-DD, the day opened in the calendar. */
  day?: string;
}

/** Today as the user's calendar has it (YYYY-MM-DD). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export const MIN_RISK_CHOICES: readonly number[] = [30, 50, 70];
export const MIN_FLOAT_CHOICES: readonly number[] = [0.1, 0.25, 0.5];

/** The calendar's state from the address bar: values the api would refuse are dropped, not sent. */
export function calendarStateOf(params: URLSearchParams, today: string = localToday()): CalendarState {
  const state: CalendarState = { month: today.slice(0, 7), view: params.get('view') === 'list' ? 'list' : 'calendar' };
  const month = params.get('month') ?? '';
  if (/^\d{4}-(0[1-9]|1[0-2])$/.test(month) && Number(month.slice(0, 4)) >= 1990 && Number(month.slice(0, 4)) <= 2100) state.month = month;
  const dayParam = params.get('day') ?? '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(dayParam) && dayParam.startsWith(state.month) && Number(dayParam.slice(8)) >= 1 && Number(dayParam.slice(8)) <= daysInMonth(state.month)) state.day = dayParam;
  const minRisk = Number(params.get('minRisk'));
  if (params.get('minRisk') && Number.isFinite(minRisk) && minRisk > 0 && minRisk <= 100) state.minRisk = minRisk;
  const minFloat = Number(params.get('minFloat'));
  if (params.get('minFloat') && Number.isFinite(minFloat) && minFloat > 0 && minFloat <= 1) state.minFloatShare = minFloat;
  const industry = (params.get('industry') ?? '').trim();
  if (industry && industry.length <= 80 && /^[\p{L}\p{N} ,.&()/'-]+$/u.test(industry)) state.industry = industry;
  const vc = params.get('vc');
  if (vc === 'yes') state.vcBacked = true;
  if (vc === 'no') state.vcBacked = false;
  return state;
}

export function calendarParams(state: Partial<CalendarState>, today: string = localToday()): URLSearchParams {
  const params = new URLSearchParams();
  if (state.view === 'list') params.set('view', 'list');
  if (state.month && state.month !== today.slice(0, 7)) params.set('month', state.month);
  if (state.day) params.set('day', state.day);
  if (state.minRisk !== undefined) params.set('minRisk', String(state.minRisk));
  if (state.minFloatShare !== undefined) params.set('minFloat', String(state.minFloatShare));
  if (state.industry) params.set('industry', state.industry);
  if (state.vcBacked !== undefined) params.set('vc', state.vcBacked ? 'yes' : 'no');
  return params;
}

export function daysInMonth(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const at = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The api query of a month with the filters. */
export function calendarQueryOf(state: CalendarState): LockupCalendarQuery {
  return {
    from: `${state.month}-01`,
    to: `${state.month}-${String(daysInMonth(state.month)).padStart(2, '0')}`,
    minRisk: state.minRisk,
    minFloatShare: state.minFloatShare,
    industry: state.industry,
    vcBacked: state.vcBacked,
  };
}

function withQuery(path: string, params: URLSearchParams): string {
  const textValue = params.toString();
  return textValue ? `${path}?${textValue}` : path;
}

// ---- Requests ----

export function getCalendar(query: LockupCalendarQuery, signal?: AbortSignal): Promise<LockupCalendarResponse> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  return apiRequest(withQuery('/api/lockups/calendar', params), { signal, parse: parseCalendar });
}

export function getLockupEvent(id: number, signal?: AbortSignal): Promise<LockupEventDetail> {
  return apiRequest(`/api/lockups/events/${id}`, { signal, parse: parseEventDetail });
}

export function getResearch(signal?: AbortSignal): Promise<LockupResearchResponse> {
  return apiRequest('/api/lockups/research', { signal, parse: parseResearch });
}

export function getFollows(signal?: AbortSignal): Promise<LockupFollowView[]> {
  return apiRequest('/api/lockups/follows', { signal, parse: parseFollows });
}

export function createFollow(input: LockupFollowInput): Promise<LockupFollowView> {
  return sendWithCsrf('/api/lockups/follows', { method: 'POST', body: input, parse: (body) => parseFollow(body) });
}

export function updateFollow(id: number, patch: { noticeDays?: LockupNoticeDays[]; minRiskScore?: number }): Promise<LockupFollowView> {
  return sendWithCsrf(`/api/lockups/follows/${id}`, { method: 'PATCH', body: patch, parse: (body) => parseFollow(body) });
}

export function deleteFollow(id: number): Promise<void> {
  return sendWithCsrf(`/api/lockups/follows/${id}`, { method: 'DELETE', parse: () => undefined });
}

// ---- Formatting ----

const NBSP = '\u00a0';
const DATE = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
const DATE_SHORT = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
const WEEKDAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short' });
const MONTH = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' });

const utc = (isoDay: string) => new Date(`${isoDay}T00:00:00Z`);

/** "Mar 11, 2026"; "—" when unknown. */
export function formatDate(isoDay: string | null): string {
  return isoDay ? DATE.format(utc(isoDay)) : '—';
}

/** "Wed, Mar 11". */
export function formatDayShort(isoDay: string): string {
  return `${WEEKDAY.format(utc(isoDay))}, ${DATE_SHORT.format(utc(isoDay))}`;
}

/** "March 2026". */
export function formatMonth(month: string): string {
  return MONTH.format(utc(`${month}-01`));
}

/** Whole days from `today` to `isoDay` (negative when past). */
export function daysUntil(isoDay: string, today: string): number {
  return Math.round((utc(isoDay).getTime() - utc(today).getTime()) / 86_400_000);
}

/** "today", "tomorrow", "in 12 days", "3 days ago". */
export function formatDaysLeft(isoDay: string | null, today: string): string {
  if (!isoDay) return '—';
  const n = daysUntil(isoDay, today);
  if (n === 0) return 'today';
  if (n === 1) return 'tomorrow';
  if (n === -1) return 'yesterday';
  return n > 0 ? `in ${n}${NBSP}days` : `${-n}${NBSP}days ago`;
}

const SHARES_COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const SHARES = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "84.6M shares" style: compact share counts; "—" when unknown. */
export function formatShares(value: string | null, compact = true): string {
  if (value === null) return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return '—';
  return compact ? SHARES_COMPACT.format(n) : SHARES.format(n);
}

/** A 0..1 share as "23.4 %"; "—" when unknown. */
export function formatShare(value: number | null, digits = 1): string {
  if (value === null || !Number.isFinite(value)) return '—';
  return `${(value * 100).toLocaleString('en-US', { maximumFractionDigits: digits })}${NBSP}%`;
}

/** "$68.00". */
export function formatPrice(value: string | number | null): string {
  if (value === null) return '—';
  const n = Number(value);
  return Number.isFinite(n) ? n.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }) : '—';
}

/** A score out of 100, one decimal when it has one. */
export function formatRisk(score: number): string {
  return score.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

export type RiskLevel = 'low' | 'medium' | 'high';

/** The score's band: under 40 low, 40 to 69.9 medium, 70 and up high. */
export function riskLevel(score: number): RiskLevel {
  return score >= 70 ? 'high' : score >= 40 ? 'medium' : 'low';
}

export const RISK_LEVEL_LABELS: Readonly<Record<RiskLevel, string>> = { low: 'Low', medium: 'Medium', high: 'High' };

export const STATUS_LABELS: Readonly<Record<LockupStatus, string>> = {
  scheduled: 'Scheduled',
  needs_review: 'Needs review',
  released_early: 'Released early',
  expired: 'Expired',
};

/** How each source is labelled on the screens. */
export const SOURCE_LABELS: Readonly<Record<LockupDataSource, string>> = { sec: 'SEC', 'sec-replay': 'Recorded', simulated: 'Simulated', csv: 'CSV' };

export const SOURCE_TITLES: Readonly<Record<LockupDataSource, string>> = {
  sec: 'Read from the prospectus filed with the SEC (EDGAR)',
  'sec-replay': 'Read from a recorded SEC prospectus (offline replay)',
  simulated: 'A simulated offering built from a recorded prospectus (offline demo data, not a real company)',
  csv: 'Loaded by the operator from a CSV file',
};

/** "Day 1 (first trading day)" or "Tranche 2 of 3". */
export function trancheText(event: Pick<LockupEventView, 'tranche' | 'tranches' | 'trancheLabel'>): string | null {
  if (event.tranches <= 1 && !event.trancheLabel) return null;
  const of = event.tranches > 1 ? `Tranche ${event.tranche} of ${event.tranches}` : null;
  return [of, event.trancheLabel].filter(Boolean).join(' · ');
}

/** "14, 7 and 1 days before, and on the day". */
export function noticeText(days: readonly number[]): string {
  const sorted = [...days].sort((a, b) => b - a);
  if (sorted.length === 0) return 'on the day';
  const parts = sorted.map(String);
  const joined = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `${joined} ${sorted.length === 1 && sorted[0] === 1 ? 'day' : 'days'} before, and on the day`;
}

export { LOCKUP_NOTICE_DAYS };

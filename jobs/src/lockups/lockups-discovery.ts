// The lockups jobs' logic: discovery (prospectuses -> events), the daily refresh (shares
// outstanding, price, run-up, volume, score) and the early-release trigger check.
import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import { ensureStockMarket } from '../prices/prices.store';
import { requestBarsBackfill } from '../prices/price-backfill';
import { filingIndexUrl, normalizeCik, parseSubmissions } from '../insiders/edgar-index.parse';
import { parseFullTextSearch, prospectusRows } from './edgar-search.parse';
import { parseProspectus, type ParsedProspectus } from './prospectus.parse';
import { parseSharesOutstanding } from './company-facts.parse';
import { replayAccessions } from './lockups-replay';
import type { LockupsSource } from './lockups-sec.client';
import type { LockupsConfig } from './lockups.config';
import { scoreLockup, type LockupRiskWeights } from './lockups-risk';
import { checkEarlyReleaseTriggers, runUpSinceIpo, volumeRatio } from './lockups-triggers';
import { addDays, lockupsToday } from './lockups-read.store';
import {
  dailyBarsSince,
  expirePastLockups,
  recordLockupEarlyRelease,
  recordLockupsDiscovery,
  storedOfferingKeys,
  tickerForCik,
  updateLockupMarketData,
  upcomingLockupEvents,
  upsertLockupOffering,
  type LockupEventFacts,
  type LockupOfferingInput,
} from './lockups.store';
import type { LockupDataSource } from './lockups.shapes';

export interface LockupsDiscoveryDeps {
  dataSource: DataSource;
  queues: JobQueues;
  clock: Clock;
  source: LockupsSource;
  config: Pick<LockupsConfig, 'LOCKUPS_DISCOVERY_DAYS' | 'LOCKUPS_DISCOVERY_MAX_FILINGS' | 'LOCKUP_RISK_WEIGHTS'>;
}

/** A prospectus to read, with what the index, the search or the replay knew of it. */
interface Candidate {
  accession: string;
  cik: string;
  companyName: string;
  fileDate: string | null;
  ticker: string | null;
  industry: string | null;
  vcBacked: boolean | null;
}

/** The words in a lock-up clause that say venture capital holders are bound. */
const VC_WORDS = /venture\s+capital|venture\s+fund|venture\s+partners/i;
/** Most bars a backfill asks for (about two years of trading days). */
const MAX_BACKFILL_BARS = 500;

/** What discovery makes of one parsed prospectus (pure). */
export function offeringFromProspectus(
  parsed: ParsedProspectus,
  candidate: Candidate,
  facts: { ticker: string | null; totalSharesOutstanding: string | null; dataSource: LockupDataSource; weights: LockupRiskWeights },
): LockupOfferingInput | null {
  const ipoDate = parsed.prospectusDate ?? candidate.fileDate;
  if (!ipoDate) return null;
  const clauseWords = `${parsed.clause ?? ''} ${parsed.boundParties ?? ''}`;
  const vcBacked = candidate.vcBacked ?? VC_WORDS.test(clauseWords);
  const steps = parsed.tranches.length ? parsed.tranches : [{ days: parsed.lockupDays, event: null, shares: null, sharePct: null, label: parsed.lockupDays ? `${parsed.lockupDays} days` : 'lock-up' }];
  const reasons: string[] = [];
  if (parsed.reviewReason) reasons.push(parsed.reviewReason);
  if (!parsed.prospectusDate) reasons.push(`the prospectus date was not read: the IPO date shown is the filing date ${candidate.fileDate}`);
  if (!facts.ticker) reasons.push('the trading symbol is unknown');
  const reviewReason = reasons.length ? reasons.join('; ') : null;
  const totalSharesOutstanding = facts.totalSharesOutstanding ?? parsed.sharesOutstandingAfter;
  // The last release without a stated count is the rest of the shares locked up (when the total is stated).
  const stated = steps.filter((t) => t.shares !== null).reduce((sum, t) => sum + BigInt(t.shares as string), 0n);
  const unstated = steps.filter((t) => t.shares === null && t.sharePct === null);
  const rest = parsed.sharesLockedUp && steps.length > 1 && unstated.length === 1 && BigInt(parsed.sharesLockedUp) > stated ? (BigInt(parsed.sharesLockedUp) - stated).toString() : null;
  const tranches = steps.map((step, i) => {
    let sharesLockedUp = step.shares;
    if (sharesLockedUp === null && rest !== null && step === unstated[0]) sharesLockedUp = rest;
    if (sharesLockedUp === null && step.sharePct !== null && parsed.sharesLockedUp) sharesLockedUp = String(Math.round(Number(parsed.sharesLockedUp) * step.sharePct));
    if (sharesLockedUp === null && steps.length === 1) sharesLockedUp = parsed.sharesLockedUp;
    const expirationDate = step.days !== null && parsed.prospectusDate ? addDays(parsed.prospectusDate, step.days) : null;
    const risk = scoreLockup(
      { vcBacked, sharesLockedUp, totalSharesOutstanding, runUp: null, avgVolumeRatio: null, industry: candidate.industry, underwriters: parsed.underwriters },
      facts.weights,
    );
    return {
      tranche: i + 1,
      label: step.label,
      expirationDate,
      sharesLockedUp,
      riskScore: risk.score,
      riskFactors: risk.factors,
      reviewReason: expirationDate === null && step.event ? `released on an event, not a date: ${step.event}${reviewReason ? `; ${reviewReason}` : ''}` : null,
    };
  });
  return {
    offeringKey: candidate.accession,
    ticker: facts.ticker,
    companyName: parsed.companyName ?? candidate.companyName,
    cik: candidate.cik,
    ipoDate,
    filingDate: candidate.fileDate,
    ipoPrice: parsed.ipoPrice,
    sharesOffered: parsed.sharesOffered,
    underwriters: parsed.underwriters,
    lockupDays: parsed.lockupDays,
    boundParties: parsed.boundParties,
    clause: parsed.clause,
    sourceAccession: candidate.accession,
    sourceUrl: filingIndexUrl(candidate.cik, candidate.accession),
    dataSource: facts.dataSource,
    totalSharesOutstanding,
    vcBacked,
    industry: candidate.industry,
    earlyRelease: parsed.earlyRelease.map((e) => ({ description: e.description, priceMultiple: e.priceMultiple, days: e.days, windowDays: e.windowDays, sharePct: e.sharePct })),
    reviewReason,
    tranches,
  };
}

/** The 424B4 filings of the last days (daily indexes; full-text search when live; the recorded and simulated ones offline), newest first. */
async function candidates(deps: LockupsDiscoveryDeps, today: string): Promise<Candidate[]> {
  const found = new Map<string, Candidate>();
  const add = (c: Candidate) => {
    const seen = found.get(c.accession);
    found.set(c.accession, seen ? { ...seen, ticker: seen.ticker ?? c.ticker, industry: seen.industry ?? c.industry, vcBacked: seen.vcBacked ?? c.vcBacked } : c);
  };
  const from = addDays(today, -(deps.config.LOCKUPS_DISCOVERY_DAYS - 1));
  for (let day = today; day >= from; day = addDays(day, -1)) {
    const index = await deps.source.dailyFormIndex(day);
    if (!index) continue;
    for (const row of prospectusRows(index, ['424B4'])) {
      add({ accession: row.accessionNumber, cik: row.cik, companyName: row.companyName, fileDate: row.dateFiled, ticker: null, industry: null, vcBacked: null });
    }
  }
  if (deps.source.kind === 'live') {
    const answer = await deps.source.fullTextSearch({ query: '"lock-up"', forms: ['424B4'], from, to: today });
    for (const hit of parseFullTextSearch(answer)) {
      if (hit.form.toUpperCase() !== '424B4') continue;
      add({ accession: hit.accession, cik: hit.cik, companyName: hit.companyName, fileDate: hit.fileDate, ticker: hit.ticker, industry: null, vcBacked: null });
    }
  } else {
    for (const r of replayAccessions(deps.clock.now())) {
      add({ accession: r.accession, cik: normalizeCik(r.cik), companyName: r.companyName, fileDate: r.fileDate, ticker: r.ticker, industry: r.industry, vcBacked: r.vcBacked });
    }
  }
  return [...found.values()].sort((a, b) => (b.fileDate ?? '').localeCompare(a.fileDate ?? ''));
}

export interface DiscoveryOutcome {
  candidates: number;
  /** Prospectuses read and stored. */
  stored: number;
  /** Already stored (not read again unless reparse). */
  known: number;
  events: { inserted: number; updated: number };
  needsReview: number;
  failed: { accession: string; reason: string }[];
  backfills: number;
}

/**
 * The issuer's industry as EDGAR classifies it (the SIC title of its submissions JSON, e.g.
 * "Pharmaceutical Preparations"), which the risk score's sector factor reads; null when EDGAR has
 * no submissions for it or gives no SIC. A failed request or an unexpected document leaves it
 * unknown rather than failing the prospectus (the score says the factor is unknown).
 */
async function issuerIndustry(source: LockupsSource, cik: string): Promise<string | null> {
  try {
    const text = await source.submissions(cik);
    return text ? parseSubmissions(text).sicDescription : null;
  } catch {
    return null;
  }
}

/** Days of daily bars a backfill asks for: from the IPO to now, in trading days, with a margin. */
function barsSince(ipoDate: string, today: string): number {
  const days = (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${ipoDate}T00:00:00Z`)) / 86_400_000;
  return Math.max(60, Math.min(MAX_BACKFILL_BARS, Math.ceil((days * 5) / 7) + 10));
}

/**
 * lockups.discover: every new prospectus found is read and stored (one event per tranche,
 * idempotent by accession and tranche), its stock gets a market and its daily bars are queued.
 * A prospectus that fails to download is counted and retried by the next run.
 */
export async function discoverLockups(deps: LockupsDiscoveryDeps, options: { reparse?: boolean } = {}): Promise<DiscoveryOutcome> {
  const now = deps.clock.now();
  const today = lockupsToday(now);
  const outcome: DiscoveryOutcome = { candidates: 0, stored: 0, known: 0, events: { inserted: 0, updated: 0 }, needsReview: 0, failed: [], backfills: 0 };
  try {
    const list = await candidates(deps, today);
    // A filing dated after today is not one yet (never stored ahead of EDGAR).
    list.splice(0, list.length, ...list.filter((c) => c.fileDate === null || c.fileDate <= today));
    outcome.candidates = list.length;
    const known = options.reparse ? new Set<string>() : await storedOfferingKeys(deps.dataSource, list.map((c) => c.accession));
    outcome.known = known.size;
    for (const candidate of list.filter((c) => !known.has(c.accession)).slice(0, deps.config.LOCKUPS_DISCOVERY_MAX_FILINGS)) {
      try {
        const parsed = parseProspectus(await deps.source.prospectus(candidate.cik, candidate.accession));
        const ticker = candidate.ticker ?? (await tickerForCik(deps.dataSource, candidate.cik));
        const facts = await deps.source.companyFacts(candidate.cik);
        const shares = facts ? parseSharesOutstanding(facts) : null;
        const industry = candidate.industry ?? (await issuerIndustry(deps.source, candidate.cik));
        const offering = offeringFromProspectus(parsed, { ...candidate, industry }, {
          ticker,
          totalSharesOutstanding: shares?.shares ?? null,
          dataSource: deps.source.dataSourceOf(candidate.accession),
          weights: deps.config.LOCKUP_RISK_WEIGHTS,
        });
        if (!offering) {
          outcome.failed.push({ accession: candidate.accession, reason: 'neither a prospectus date nor a filing date' });
          continue;
        }
        const result = await upsertLockupOffering(deps.dataSource, offering, { today });
        outcome.stored++;
        outcome.events.inserted += result.inserted;
        outcome.events.updated += result.updated;
        outcome.needsReview += offering.tranches.filter((t) => t.expirationDate === null).length + (ticker ? 0 : offering.tranches.filter((t) => t.expirationDate !== null).length);
        if (ticker) {
          await ensureStockMarket(deps.dataSource, ticker, offering.companyName, candidate.cik);
          await requestBarsBackfill(deps.queues, ticker, '1d', barsSince(offering.ipoDate, today), now);
          outcome.backfills++;
        }
      } catch (error) {
        outcome.failed.push({ accession: candidate.accession, reason: (error as Error).message.slice(0, 300) });
      }
    }
  } catch (error) {
    await recordLockupsDiscovery(deps, { ok: false, error: (error as Error).message });
    throw error;
  }
  await recordLockupsDiscovery(deps, { ok: true, details: { kind: deps.source.kind, candidates: outcome.candidates, stored: outcome.stored, failed: outcome.failed.length } });
  return outcome;
}

export interface RefreshOutcome {
  events: number;
  scored: number;
  expired: number;
  withPrices: number;
  backfills: number;
}

/** The measured inputs of one event from its bars and shares outstanding (pure). */
export function marketDataOf(event: LockupEventFacts, bars: { date: string; close: string; volume: string }[], totalSharesOutstanding: string | null) {
  const ipoPrice = event.ipoPrice === null ? null : Number(event.ipoPrice);
  const last = bars.length ? bars[bars.length - 1].close : null;
  const total = totalSharesOutstanding ?? event.totalSharesOutstanding;
  return {
    totalSharesOutstanding: total,
    currentPrice: last,
    marketCap: last !== null && total !== null ? (Number(last) * Number(total)).toFixed(2) : null,
    runUp: runUpSinceIpo(bars, ipoPrice),
    avgVolumeRatio: volumeRatio(bars),
  };
}

/**
 * lockups.refresh: for every upcoming (or undated) event, shares outstanding from the company
 * facts (one request per issuer), the last close, market cap, run-up and volume ratio from the
 * daily bars since the IPO, and the score again; scheduled events past their date become expired.
 */
export async function refreshLockups(deps: Omit<LockupsDiscoveryDeps, 'config'> & { config: Pick<LockupsConfig, 'LOCKUP_RISK_WEIGHTS'> }): Promise<RefreshOutcome> {
  const now = deps.clock.now();
  const today = lockupsToday(now);
  const expired = await expirePastLockups(deps.dataSource, today);
  const events = await upcomingLockupEvents(deps.dataSource, today);
  const sharesByCik = new Map<string, string | null>();
  const backfilled = new Set<string>();
  const outcome: RefreshOutcome = { events: events.length, scored: 0, expired, withPrices: 0, backfills: 0 };
  for (const event of events) {
    let shares: string | null = null;
    if (event.cik) {
      if (!sharesByCik.has(event.cik)) {
        const facts = await deps.source.companyFacts(event.cik).catch(() => null);
        sharesByCik.set(event.cik, facts ? (parseSharesOutstanding(facts)?.shares ?? null) : null);
      }
      shares = sharesByCik.get(event.cik) ?? null;
    }
    const { bars } = event.ticker ? await dailyBarsSince(deps.dataSource, event.ticker, event.ipoDate) : { bars: [] };
    if (bars.length) outcome.withPrices++;
    else if (event.ticker && !backfilled.has(event.ticker)) {
      backfilled.add(event.ticker);
      await requestBarsBackfill(deps.queues, event.ticker, '1d', barsSince(event.ipoDate, today), now);
      outcome.backfills++;
    }
    const data = marketDataOf(event, bars, shares);
    const risk = scoreLockup(
      { vcBacked: event.vcBacked, sharesLockedUp: event.sharesLockedUp, totalSharesOutstanding: data.totalSharesOutstanding, runUp: data.runUp, avgVolumeRatio: data.avgVolumeRatio, industry: event.industry, underwriters: event.underwriters },
      deps.config.LOCKUP_RISK_WEIGHTS,
    );
    await updateLockupMarketData(deps.dataSource, event.id, { ...data, riskScore: risk.score, riskFactors: risk.factors });
    outcome.scored++;
  }
  return outcome;
}

export interface TriggerOutcome {
  checked: number;
  met: { id: number; ticker: string | null; metOn: string }[];
}

/** lockups.check-triggers: each upcoming event's unmet price triggers against its daily closes since the IPO. */
export async function checkLockupTriggers(deps: { dataSource: DataSource; clock: Clock }): Promise<TriggerOutcome> {
  const today = lockupsToday(deps.clock.now());
  const events = (await upcomingLockupEvents(deps.dataSource, today)).filter(
    (e) => e.ticker && e.ipoPrice && e.earlyRelease.some((t) => t.priceMultiple !== null && !t.metOn),
  );
  const outcome: TriggerOutcome = { checked: events.length, met: [] };
  for (const event of events) {
    const { bars } = await dailyBarsSince(deps.dataSource, event.ticker as string, event.ipoDate);
    const result = checkEarlyReleaseTriggers(event.earlyRelease, Number(event.ipoPrice), bars, { ipoDate: event.ipoDate, today });
    if (!result.newlyMetOn) continue;
    await recordLockupEarlyRelease(deps.dataSource, event.id, result.triggers, result.newlyMetOn);
    outcome.met.push({ id: event.id, ticker: event.ticker, metOn: result.newlyMetOn });
  }
  return outcome;
}

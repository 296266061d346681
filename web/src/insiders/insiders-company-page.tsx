// /dashboard/insiders/companies/:ticker: a company's insider trades over its price chart (buy and
// sell markers), the latest analytics and their history, every line (cursor pages) and the
// follow settings.
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { InsiderAnalyticsView, InsiderCompanyPage, InsiderScreenerPage } from '@tickerbell/jobs/insiders/shapes';
import { messageOf } from '../accounts/auth-client';
import { getBars, type Bars } from '../prices/markets-client';
import { SimulatedBadge } from '../prices/simulated-badge';
import { useTheme } from '../theme/theme-provider';
import { InsiderPriceChart, SentimentHistoryChart, TradeTimeline, tradeDays } from './insiders-charts';
import { SENTIMENT_LABELS, formatScore, formatShares, formatUsd, formatUsdCompact, getCompanyPage, getScreener } from './insiders-client';
import { InsiderFollowForm } from './insiders-follow-form';
import { INSIDERS_RESEARCH_PATH, INSIDERS_SCREENER_PATH, companyKey } from './insiders-paths';
import { ReplayNote, TradesTable } from './insiders-trades-table';
import { appendPage, LoadMore, RequestFailed, shownData, useLoadMore, useRequest } from '../api/use-request';
import './insiders.css';

/** Waits between asks while the price history is still being fetched. */
const BARS_RECHECK_MS = [1_000, 2_000, 3_000, 5_000, 10_000];

type BarsState = { state: 'loading' } | { state: 'ready'; data: Bars } | { state: 'failed'; message: string };

function useDailyBars(symbol: string | null): BarsState {
  const [bars, setBars] = useState<BarsState>({ state: 'loading' });
  useEffect(() => {
    if (!symbol) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let recheck = 0;
    setBars({ state: 'loading' });
    const load = (): void => {
      getBars(symbol, '1d', controller.signal)
        .then((data) => {
          if (controller.signal.aborted) return;
          setBars({ state: 'ready', data });
          if (data.backfillPending && recheck < BARS_RECHECK_MS.length) timer = setTimeout(load, BARS_RECHECK_MS[recheck++]);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setBars({ state: 'failed', message: messageOf(error) });
        });
    };
    load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [symbol]);
  return bars;
}

/** "100th", "1st", "22nd", "13th" of a percentile (rounded). */
export function ordinal(value: string): string {
  const n = Math.round(Number(value));
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

function sentimentClass(view: InsiderAnalyticsView): string {
  return view.insiderSentiment ? `insider-sentiment--${view.insiderSentiment}` : 'insider-sentiment--none';
}

function LatestAnalytics({ latest }: { latest: InsiderAnalyticsView }) {
  return (
    <section className="dashboard-panel" aria-labelledby="insider-latest-title">
      <h2 id="insider-latest-title">
        Last 30 days, to <time dateTime={latest.analysisDate}>{latest.analysisDate}</time>
      </h2>
      {latest.isUnusualActivity && latest.alertReason && (
        <p className={`insider-alert insider-alert--${latest.alertLevel}`} role="note">
          <strong>Unusual activity ({latest.alertLevel}):</strong> {latest.alertReason}
        </p>
      )}
      {latest.isClusterBuy && (
        <p className="insider-cluster" role="note">
          <strong>Cluster buy:</strong> {latest.clusterInsiders} insiders bought on the open market in the 30 days.
        </p>
      )}
      <dl className="insider-facts">
        <div>
          <dt>Sentiment</dt>
          <dd>
            <span className={`insider-sentiment ${sentimentClass(latest)}`}>{latest.insiderSentiment ? SENTIMENT_LABELS[latest.insiderSentiment] : 'No open-market trades'}</span>
            <span className="data-table__sub">
              score {formatScore(latest.sentimentScore)} of ±100
              {latest.confidenceLevel !== null && `, confidence ${Math.round(Number(latest.confidenceLevel) * 100)}%`}
            </span>
          </dd>
        </div>
        <div>
          <dt>Open-market buys / sells</dt>
          <dd>
            {latest.buyTransactions30d} / {latest.sellTransactions30d}
            <span className="data-table__sub">of {latest.totalTransactions30d} lines, {latest.distinctInsiders} insiders trading</span>
          </dd>
        </div>
        <div>
          <dt>Discretionary buys / sells</dt>
          <dd>
            {formatUsdCompact(latest.discretionaryBuyValue)} / {formatUsdCompact(latest.discretionarySellValue)}
            <span className="data-table__sub">10b5-1 plan trades left out</span>
          </dd>
        </div>
        <div>
          <dt>Net value</dt>
          <dd>
            {formatUsd(latest.netValue30d)}
            <span className="data-table__sub">net shares {formatShares(latest.netShares30d)}</span>
          </dd>
        </div>
        <div>
          <dt>Rank</dt>
          <dd>
            {latest.percentileRank !== null
              ? `${ordinal(latest.percentileRank)} percentile`
              : latest.historyPercentile !== null
                ? `${ordinal(latest.historyPercentile)} percentile of its own history`
                : '—'}
            <span className="data-table__sub">
              {latest.percentileRank !== null
                ? `against every company that day${latest.historyPercentile !== null ? `; ${ordinal(latest.historyPercentile)} of its own history` : ''}`
                : latest.historyPercentile !== null
                  ? 'no other company was scored that day'
                  : 'not ranked: no score yet'}
            </span>
          </dd>
        </div>
      </dl>
    </section>
  );
}

function AnalyticsHistory({ history }: { history: readonly InsiderAnalyticsView[] }) {
  const newestFirst = [...history].reverse();
  return (
    <section className="dashboard-panel" aria-labelledby="insider-history-title">
      <h2 id="insider-history-title">Analytics history</h2>
      {history.length === 0 ? (
        <p className="empty-state">No analytics yet: they are computed after each stored filing.</p>
      ) : (
        <>
          <SentimentHistoryChart history={history} />
          <details className="insider-disclosure">
            <summary>
              Every day ({history.length} {history.length === 1 ? 'day' : 'days'})
            </summary>
            <div className="table-scroll" role="region" aria-label="Analytics history" tabIndex={0}>
              <table className="data-table insider-history">
                <caption className="visually-hidden">Insider analytics by day, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Sentiment</th>
                    <th scope="col" className="num">
                      Buys
                    </th>
                    <th scope="col" className="num">
                      Sells
                    </th>
                    <th scope="col" className="num">
                      Net value
                    </th>
                    <th scope="col">Signals</th>
                  </tr>
                </thead>
                <tbody>
                  {newestFirst.map((view) => (
                    <tr key={view.analysisDate}>
                      <th scope="row">{view.analysisDate}</th>
                      <td>
                        {view.insiderSentiment ? SENTIMENT_LABELS[view.insiderSentiment] : '—'} {formatScore(view.sentimentScore)}
                      </td>
                      <td className="num">{view.buyTransactions30d}</td>
                      <td className="num">{view.sellTransactions30d}</td>
                      <td className="num">{formatUsd(view.netValue30d)}</td>
                      <td>
                        {view.isClusterBuy && <span className="badge insider-badge--cluster">Cluster</span>}
                        {view.isUnusualActivity && <span className="badge insider-badge--unusual">Unusual</span>}
                        {!view.isClusterBuy && !view.isUnusualActivity && '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}

function PriceSection({ page, transactions }: { page: InsiderCompanyPage; transactions: InsiderScreenerPage }) {
  const { theme } = useTheme();
  const bars = useDailyBars(page.marketSymbol);
  const days = useMemo(() => tradeDays(transactions.rows), [transactions.rows]);
  const label = page.company.ticker ?? page.company.name;
  return (
    <section className="dashboard-panel" aria-labelledby="insider-chart-title">
      <h2 id="insider-chart-title">
        Trades over the price {bars.state === 'ready' && bars.data.simulated && <SimulatedBadge />}
      </h2>
      {page.marketSymbol === null ? (
        <>
          <p className="insider-note" role="note">
            {label} has no market in Tickerbell’s price feed, so its trades are drawn on a timeline without a price.
          </p>
          <TradeTimeline days={days} />
        </>
      ) : bars.state === 'loading' ? (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading {page.marketSymbol} prices…
        </p>
      ) : bars.state === 'failed' ? (
        <>
          <p className="form-message form-message--error" role="alert">
            {page.marketSymbol} prices could not be loaded ({bars.message}); the trades are on a timeline instead.
          </p>
          <TradeTimeline days={days} />
        </>
      ) : bars.data.bars.length === 0 ? (
        <>
          <p className="insider-note" role="note">
            {bars.data.backfillPending ? `${page.marketSymbol}’s daily prices are still being fetched.` : `No daily prices are stored for ${page.marketSymbol} yet.`} The trades are on a
            timeline meanwhile.
          </p>
          <TradeTimeline days={days} />
        </>
      ) : (
        <InsiderPriceChart symbol={page.marketSymbol} bars={bars.data.bars} days={days} theme={theme} />
      )}
    </section>
  );
}

export function InsidersCompanyPage() {
  const { ticker = '' } = useParams();
  const [result, update, retry] = useRequest(ticker, (signal) => getCompanyPage(ticker, signal));
  const data = shownData(result);

  const { more, loadMore } = useLoadMore(
    ticker,
    data?.transactions.nextCursor,
    (cursor) => getScreener({ ticker: data ? companyKey(data.company) : ticker, cursor }),
    update,
    (page, next) => ({ ...page, transactions: { ...appendPage(page.transactions, next), replay: page.transactions.replay || next.replay } }),
  );

  if (result.state === 'failed') {
    const missing = result.status === 404;
    return (
      <div className="insiders-page">
        <title>{`${ticker} insider trades · Tickerbell`}</title>
        <p className="insider-back">
          <Link to={INSIDERS_SCREENER_PATH}>← Insider trades</Link>
        </p>
        <h1>{ticker}</h1>
        {missing ? (
          <p className="form-message form-message--error" role="alert">
            No company with the ticker or CIK “{ticker}” is known to Tickerbell. Search the screener for its name.
          </p>
        ) : (
          <RequestFailed what="The company" message={result.message} onRetry={retry} />
        )}
      </div>
    );
  }
  if (!data) {
    return (
      <div className="insiders-page">
        <title>{`${ticker} insider trades · Tickerbell`}</title>
        <h1>{ticker}</h1>
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading {ticker}…
        </p>
      </div>
    );
  }

  const { company } = data;
  const label = company.ticker ?? company.name;
  const noLines = data.transactions.rows.length === 0;
  return (
    <div className="insiders-page">
      <title>{`${label} insider trades · Tickerbell`}</title>
      <p className="insider-back">
        <Link to={INSIDERS_SCREENER_PATH}>← Insider trades</Link>
      </p>
      <h1>
        {company.ticker && <span className="insider-ticker">{company.ticker}</span>} {company.name}
      </h1>
      <p className="insider-sub">
        CIK {company.cik}
        {company.sector && ` · ${company.sector}`}
        {company.industry && ` · ${company.industry}`} ·{' '}
        <a href={`https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=${company.cik}&type=4&dateb=&owner=include&count=40`} target="_blank" rel="noreferrer">
          Form 4 filings on EDGAR
        </a>
      </p>
      <ReplayNote show={data.transactions.replay} />

      <div className="insider-company-grid">
        <div className="insider-company-grid__main">
          {data.latest ? <LatestAnalytics latest={data.latest} /> : null}
          <PriceSection page={data} transactions={data.transactions} />
        </div>
        <section className="dashboard-panel insider-company-grid__side" aria-labelledby="insider-follow-title">
          <h2 id="insider-follow-title">Follow {label}</h2>
          <InsiderFollowForm companyKey={companyKey(company)} label={label} follow={data.follow} noFilings={noLines} />
        </section>
      </div>

      <section className="dashboard-panel" aria-labelledby="insider-trades-title">
        <h2 id="insider-trades-title">Transactions</h2>
        {noLines ? (
          <p className="empty-state">
            No Form 4 lines are stored for {label} yet. Following it fetches its recent filings from EDGAR; new ones arrive within a minute of being filed.
          </p>
        ) : (
          <>
            <TradesTable rows={data.transactions.rows} caption={`Insider transactions of ${label}`} showCompany={false} />
            <LoadMore className="insider-more" more={more} hasNext={!!data.transactions.nextCursor} onLoadMore={loadMore} label="Load more trades" failed="More trades could not be loaded" />
          </>
        )}
      </section>

      <AnalyticsHistory history={data.history} />
      <p className="insider-sub">
        <Link to={INSIDERS_RESEARCH_PATH}>How sentiment, clusters and unusual activity are defined</Link>
      </p>
    </div>
  );
}


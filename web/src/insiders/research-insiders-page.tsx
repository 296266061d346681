// /research/insiders (public): the latest cluster buys, and how Tickerbell reads insider trades.
import { Link } from 'react-router-dom';
import { CLUSTER_BUY_MIN_INSIDERS, INSIDER_WINDOW_DAYS, type InsiderClusterBuy } from '@tickerbell/jobs/insiders/shapes';
import { ContentPage } from '../pages/content-page';
import { ROLE_LABELS, formatScore, formatUsdCompact, getClusterBuys } from './insiders-client';
import { INSIDERS_SCREENER_PATH, companyKey, companyPath } from './insiders-paths';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import './insiders.css';

function ClusterBuyCard({ cluster }: { cluster: InsiderClusterBuy }) {
  const label = cluster.company.ticker ?? `CIK ${cluster.company.cik}`;
  return (
    <li className="insider-cluster-card">
      <h3 className="insider-cluster-card__title">
        <Link to={companyPath(companyKey(cluster.company))}>
          <span className="insider-ticker">{label}</span> {cluster.company.name}
        </Link>
        {cluster.replay && (
          <>
            {' '}
            <span className="badge insider-badge--simulated" title="Some of these purchases come from recorded SEC filings or simulated variants of them (the offline demo), not live EDGAR data">
              Demo data
            </span>
          </>
        )}
      </h3>
      <p className="insider-cluster-card__lede">
        <strong>{cluster.clusterInsiders} insiders</strong> bought {formatUsdCompact(cluster.discretionaryBuyValue)} on the open market in the {INSIDER_WINDOW_DAYS} days to{' '}
        <time dateTime={cluster.analysisDate}>{cluster.analysisDate}</time>
        {cluster.sentimentScore !== null && <> · sentiment {formatScore(cluster.sentimentScore)}</>}
      </p>
      <ul className="insider-cluster-card__buyers" aria-label={`Buyers of ${label}`}>
        {cluster.buyers.map((buyer) => (
          <li key={buyer.cik}>
            <span className="insider-cluster-card__name">{buyer.name}</span>{' '}
            <span className="data-table__sub insider-inline-sub">
              {buyer.roles.map((role) => ROLE_LABELS[role]).join(', ') || 'Insider'} · {formatUsdCompact(buyer.value)} · last buy {buyer.lastBuyDate}
            </span>
          </li>
        ))}
      </ul>
    </li>
  );
}

function LatestClusterBuys() {
  const [result, , retry] = useRequest('cluster-buys', (signal) => getClusterBuys(signal));
  const data = shownData(result);
  if (result.state === 'failed') {
    return <RequestFailed what="The latest cluster buys" message={result.message} onRetry={retry} />;
  }
  if (data === null) {
    return (
      <p role="status" className="page-loading">
        <span className="spinner" aria-hidden="true" /> Loading the latest cluster buys…
      </p>
    );
  }
  if (data.length === 0) {
    return <p className="empty-state">No cluster buy has been found yet: none of the stored companies had {CLUSTER_BUY_MIN_INSIDERS} or more insiders buying within {INSIDER_WINDOW_DAYS} days.</p>;
  }
  return (
    <ol className="insider-cluster-list" aria-label="Latest cluster buys">
      {data.map((cluster) => (
        <ClusterBuyCard key={`${cluster.company.cik}-${cluster.analysisDate}`} cluster={cluster} />
      ))}
    </ol>
  );
}

export function ResearchInsidersPage() {
  return (
    <ContentPage
      title="Insider cluster buys"
      eyebrow="Research"
      lede={
        <p>
          Officers, directors and 10% owners report their trades in their own company’s shares to the SEC on Form 4 within two business days. When
          several of them buy on the open market at the same time, with their own money, that is one of the few insider signals research finds
          informative. These are the latest ones Tickerbell found.
        </p>
      }
      sections={[
        { id: 'latest', heading: 'Latest cluster buys', body: <LatestClusterBuys /> },
        {
          id: 'what-counts',
          heading: 'What counts as buying and selling',
          body: (
            <p>
              Only open-market or private purchases (code P) and sales (code S) count. Grants and awards (A), option exercises (M), conversions (C),
              gifts (G), shares withheld for taxes (F) and dispositions to the company (D) are shown on every screen but never counted as buying or
              selling. Trades made under a Rule 10b5-1 plan, set up months in advance, are shown and left out of the discretionary sentiment.
            </p>
          ),
        },
        {
          id: 'cluster',
          heading: 'Cluster buys',
          body: (
            <p>
              A company is in a cluster buy on a day when at least {CLUSTER_BUY_MIN_INSIDERS} different insiders bought its shares on the open market
              (code P) in the {INSIDER_WINDOW_DAYS} days up to and including that day, by trade date. Joint filers of one filing count once per trade
              line.
            </p>
          ),
        },
        {
          id: 'sentiment',
          heading: 'Sentiment',
          body: (
            <>
              <p className="formula">score = 100 × (weighted buys − weighted sells) ÷ (weighted buys + weighted sells)</p>
              <p>
                Over the same {INSIDER_WINDOW_DAYS}-day window, on the dollar value of discretionary open-market purchases and sales, each weighted by
                the insider’s role: officers 1.0, directors 0.8, 10% owners 0.5, others 0.3. A score of +20 or more is bullish, −20 or less bearish.
              </p>
            </>
          ),
        },
        {
          id: 'routine',
          heading: 'Routine and opportunistic insiders',
          body: (
            <p>
              Following Cohen, Malloy and Pomorski (2012), an insider who traded in the same calendar month in each of the three previous years is
              routine: those trades carry little information. The others are opportunistic and are labelled so on the screener.
            </p>
          ),
        },
        {
          id: 'screener',
          heading: 'The screener',
          body: (
            <p>
              Signed in, the <Link to={INSIDERS_SCREENER_PATH}>insider trades screener</Link> filters every stored line by filing and trade dates, codes,
              value, roles and ticker, with the presets latest purchases, cluster buys and officer buys of $25,000 or more, and exports CSV. Follow a
              company to be notified of its cluster buys, officer purchases and unusual activity.
            </p>
          ),
        },
      ]}
    />
  );
}

import { Link } from 'react-router-dom';
import { ContentPage } from './content-page';

export function ResearchPage() {
  return (
    <ContentPage
      title="Research"
      eyebrow="Methods"
      lede={
        <p>
          How Tickerbell turns raw market data into the numbers on your dashboard. Every figure is computed from
          public sources by documented rules, so you can check it yourself.
        </p>
      }
      sections={[
        {
          id: 'sources',
          heading: 'Where the data comes from',
          body: (
            <ul className="content-list">
              <li>Futures positioning: the CFTC’s weekly Commitments of Traders reports (Traders in Financial Futures).</li>
              <li>Insider trades and IPO lockups: filings on the SEC’s EDGAR system.</li>
              <li>Whale wallets: transactions read from the Ethereum network.</li>
              <li>Prediction markets: market prices published by Polymarket.</li>
              <li>Liquidity-pool yields: pool data from DefiLlama and Uniswap.</li>
            </ul>
          ),
        },
        {
          id: 'freshness',
          heading: 'Freshness and checks',
          body: (
            <p>
              Each source is fetched on its own schedule by background workers, parsed, and stored idempotently,
              so fetching the same report twice never doubles it. The time of each source’s last successful fetch
              is shown on the <Link to="/status">status page</Link>. Percentages are computed with decimal
              arithmetic and rounded once, at the end, so results do not drift from floating-point error.
            </p>
          ),
        },
        {
          id: 'cot',
          heading: 'Futures positioning (COT)',
          body: (
            <p>
              Net positioning, percentile ranks, the COT index, extremes and the divergence between leveraged funds
              and asset managers. <Link to="/research/cot">Read the COT definitions</Link>.
            </p>
          ),
        },
        {
          id: 'market-hours',
          heading: 'Market hours',
          body: (
            <p>
              Exchange sessions are computed in each exchange’s IANA time zone from its opening time, closing time
              and trading weekdays. A market counts as open from its opening minute up to, but not including, its
              closing minute.
            </p>
          ),
        },
      ]}
    />
  );
}

import { Link } from 'react-router-dom';
import { ContentPage } from '../pages/content-page';

export function ResearchCotPage() {
  return (
    <ContentPage
      title="COT positioning: definitions"
      eyebrow="Research"
      lede={
        <p>
          The Commitments of Traders (COT) report, published weekly by the U.S. Commodity Futures Trading
          Commission, shows how each group of traders is positioned in a futures market. These are the exact
          rules Tickerbell uses to turn it into signals.
        </p>
      }
      sections={[
        {
          id: 'screener',
          heading: 'Live screener',
          body: (
            <p>
              The <Link to="/research/cot/screener">COT screener</Link> applies these rules to every market’s latest
              report: net positions, percentile heat, extremes and divergence, with a chart page per market. The data
              is public and needs no account.
            </p>
          ),
        },
        {
          id: 'net-percent',
          heading: 'Net positioning',
          body: (
            <>
              <p>For every trader group, in every report:</p>
              <p className="formula">net % = (long − short) ÷ open interest × 100, rounded to 2 decimals</p>
              <p>
                Dividing by open interest makes weeks comparable when the market grows or shrinks. The groups are
                dealers, asset managers and leveraged funds; the <strong>commercial</strong> position is dealer +
                asset manager.
              </p>
            </>
          ),
        },
        {
          id: 'percentile',
          heading: 'Percentile rank',
          body: (
            <>
              <p className="formula">percentile = 100 × count(values ≤ current) ÷ count(values)</p>
              <p>
                The values are the group’s net percentages over a window of the latest 156 reports (three years of
                weekly data) including the current one. An operator can set a 26- or 52-report window instead (COT_LOOKBACK); the instrument pages let you choose how much history the charts draw.
              </p>
            </>
          ),
        },
        {
          id: 'cot-index',
          heading: 'COT index',
          body: (
            <>
              <p className="formula">COT index = 100 × (current − min) ÷ (max − min)</p>
              <p>
                Minimum and maximum are taken over the same window. When every value in the window is the same
                (max equals min) the index is 50.
              </p>
            </>
          ),
        },
        {
          id: 'extremes',
          heading: 'Extremes',
          body: (
            <p>
              A reading of 90 or more is an extreme long; 10 or less is an extreme short. Extremes are where
              positioning has historically been stretched, which is why Tickerbell highlights them.
            </p>
          ),
        },
        {
          id: 'divergence',
          heading: 'Divergence',
          body: (
            <>
              <p className="formula">divergence = leveraged funds percentile − asset managers percentile</p>
              <p>
                A large positive value means leveraged funds are far more long, relative to their own history, than
                asset managers; a large negative value the reverse.
              </p>
            </>
          ),
        },
        {
          id: 'provisional',
          heading: 'Provisional readings',
          body: (
            <p>
              With fewer than 26 reports of history a market’s percentile and index are marked provisional: the
              window is too short for the extremes to mean much.
            </p>
          ),
        },
      ]}
    />
  );
}

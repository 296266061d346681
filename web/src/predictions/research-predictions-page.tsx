// /research/predictions (public): the most traded and the soonest-ending Polymarket markets, open
// mispricing alerts, how Tickerbell's forecasters score against the market, and how the scorecard
// is computed (docs/predictions.md has the formulas).
import { Link } from 'react-router-dom';
import type { PredictionCommunityRecord, PredictionMarketView } from '@tickerbell/jobs/predictions/shapes';
import { ContentPage } from '../pages/content-page';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import { formatUsdCompact } from '../format/usd';
import { formatDate, formatProbability, formatScore, getResearch } from './predictions-client';
import { MispricingTable, SourceNote } from './predictions-parts';
import { PREDICTIONS_PATH, PREDICTIONS_PERFORMANCE_PATH, predictionMarketPath } from './predictions-paths';
import './predictions.css';

function MarketList({ rows, caption, empty }: { rows: readonly PredictionMarketView[]; caption: string; empty: string }) {
  if (rows.length === 0) return <p className="empty-state">{empty}</p>;
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="data-table data-table--cards pm-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            <th scope="col" className="num">
              YES
            </th>
            <th scope="col" className="num">
              24 h volume
            </th>
            <th scope="col" className="num">
              Ends
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((market) => (
            <tr key={market.id}>
              <td data-label="Market" className="pm-question data-table__wide">
                <Link to={predictionMarketPath(market.id)}>{market.question}</Link>
                {market.category && <span className="data-table__sub">{market.category}</span>}
              </td>
              <td data-label="YES" className="num pm-strong">
                {formatProbability(market.yesPrice)}
              </td>
              <td data-label="24 h volume" className="num">
                {formatUsdCompact(market.volume24h)}
              </td>
              <td data-label="Ends" className="num">
                {formatDate(market.endDate)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CommunityRecord({ record }: { record: PredictionCommunityRecord }) {
  if (record.questions === 0 || record.brier === null || record.marketBrier === null) {
    return <p className="empty-state">No forecast made on Tickerbell has resolved yet: the record starts with the first resolution.</p>;
  }
  const beat = record.brier < record.marketBrier;
  return (
    <>
      <dl className="pm-figures">
        <div>
          <dt>Forecasters</dt>
          <dd>{record.forecasters.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Resolved questions</dt>
          <dd>{record.questions.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Their Brier score</dt>
          <dd>{formatScore(record.brier)}</dd>
        </div>
        <div>
          <dt>The market’s, at the same moments</dt>
          <dd>{formatScore(record.marketBrier)}</dd>
        </div>
      </dl>
      <p>
        Lower is better. Taken together, Tickerbell’s forecasters {beat ? 'beat' : 'did not beat'} the market price at the moments they forecast
        {beat ? '' : ' so far'}.
      </p>
    </>
  );
}

function ResearchData() {
  const [result, , retry] = useRequest('predictions-research', (signal) => getResearch(signal));
  const data = shownData(result);
  if (result.state === 'failed') return <RequestFailed what="The prediction markets" message={result.message} onRetry={retry} />;
  if (data === null) {
    return (
      <p role="status" className="page-loading">
        <span className="spinner" aria-hidden="true" /> Loading the prediction markets…
      </p>
    );
  }
  return (
    <>
      <SourceNote source={data.source} />
      <h3>Most traded in the last 24 hours</h3>
      <MarketList rows={data.trending} caption="Active markets with the most 24 hour volume" empty="No active market has been synced yet." />
      <h3>Ending within 7 days</h3>
      <MarketList rows={data.closingSoon} caption="Active markets ending within 7 days" empty="No active market ends within the next 7 days." />
      <h3>Open mispricing alerts</h3>
      {data.mispricing.length === 0 ? (
        <p className="empty-state">No market looks mispriced right now.</p>
      ) : (
        <MispricingTable rows={data.mispricing} caption="Open mispricing alerts" />
      )}
      <h3>Tickerbell’s forecasters against the market</h3>
      <CommunityRecord record={data.community} />
    </>
  );
}

export function ResearchPredictionsPage() {
  return (
    <ContentPage
      title="Prediction markets"
      eyebrow="Research"
      lede={
        <p>
          A prediction market’s price is the crowd’s probability that something happens. Tickerbell follows Polymarket’s markets, lets you put your own
          probability beside the price, and keeps a scorecard that says whether you beat the market at the moment you forecast.
        </p>
      }
      sections={[
        { id: 'markets', heading: 'Markets now', body: <ResearchData /> },
        {
          id: 'scoring',
          heading: 'How forecasts are scored',
          body: (
            <p>
              A forecast is your probability of YES, entered as a probability, a percentage or odds, and stored with the market’s price at that moment
              (from our own price snapshots, never from your browser). You can change it until the market closes; a question is scored on the time each
              forecast stood, as Metaculus does. The Brier score is the mean squared distance between your probability and what happened (0 is perfect,
              0.25 is always saying 50 %); the log score is the mean log of the probability you gave to what happened. The same scores computed on the
              market’s prices at your moments say whether you beat the market.
            </p>
          ),
        },
        {
          id: 'calibration',
          heading: 'Calibration',
          body: (
            <p>
              Your resolved questions are grouped in ten bins by the probability you gave. In a calibrated record, things you put at 70 % happen about
              70 % of the time; each bin shows its count and a 95 % Wilson interval, so a bin of three questions is not read as proof. The Brier score is
              also split into reliability, resolution and uncertainty.
            </p>
          ),
        },
        {
          id: 'mispricing',
          heading: 'Mispricing alerts',
          body: (
            <p>
              An alert opens when a market’s executable price (the ask to buy YES, the bid to sell) is away from a fair value by more than fees and the
              threshold: either our forecasters’ recent consensus, weighted by their track record, or the outcomes of the same event that should sum to
              one. Polymarket’s augmented negative-risk events are left out: their prices do not sum to one by design.
            </p>
          ),
        },
        {
          id: 'start',
          heading: 'Start forecasting',
          body: (
            <p>
              Signed in, browse the <Link to={PREDICTIONS_PATH}>markets</Link>, make a forecast on any open one, and read your{' '}
              <Link to={PREDICTIONS_PERFORMANCE_PATH}>performance</Link> once they resolve.
            </p>
          ),
        },
      ]}
    />
  );
}

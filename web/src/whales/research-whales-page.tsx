// /research/whales (public): the last day's largest Ethereum transfers, and how Tickerbell reads,
// values and labels them.
import { Link } from 'react-router-dom';
import { getLargest } from './whales-client';
import { WHALES_FEED_PATH, WHALES_WATCHLIST_PATH } from './whales-paths';
import { SourceNote, TransfersTable } from './whales-parts';
import { ContentPage } from '../pages/content-page';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import './whales.css';

function LargestTransfers() {
  const [result, , retry] = useRequest('largest', (signal) => getLargest(24, signal));
  const data = shownData(result);
  if (result.state === 'failed') return <RequestFailed what="The largest transfers" message={result.message} onRetry={retry} />;
  if (data === null) {
    return (
      <p role="status" className="page-loading">
        <span className="spinner" aria-hidden="true" /> Loading the largest transfers…
      </p>
    );
  }
  return (
    <>
      <SourceNote source={data.source} />
      {data.rows.length === 0 ? (
        <p className="empty-state">No priced transfer has been recorded in the last {data.hours} hours yet.</p>
      ) : (
        <TransfersTable rows={data.rows} caption={`Largest transfers of the last ${data.hours} hours`} />
      )}
    </>
  );
}

export function ResearchWhalesPage() {
  return (
    <ContentPage
      title="Whale transfers"
      eyebrow="Research"
      lede={
        <p>
          When a fund, an exchange or an early holder moves millions of dollars of ETH or stablecoins, it shows on the Ethereum chain within seconds. Coins
          sent to an exchange are often about to be sold; coins withdrawn are usually going into custody. These are the largest transfers of the last
          day, in US dollars at the time of their block.
        </p>
      }
      sections={[
        { id: 'largest', heading: 'Largest transfers, last 24 hours', body: <LargestTransfers /> },
        {
          id: 'whale',
          heading: 'What counts as a whale transfer',
          body: (
            <p>
              Every native ETH transfer and every ERC-20 Transfer event of a confirmed block is read. A transfer is a whale transfer when its value at the
              block’s time reaches the global threshold ($1,000,000 unless the operator sets another), or when it reaches the threshold a watcher chose
              for a watched address. Transfers of tokens without a known price are kept and shown without a US dollar value; none is guessed.
            </p>
          ),
        },
        {
          id: 'usd',
          heading: 'US dollar values',
          body: (
            <p>
              ETH is valued at the ETH/USDT one-minute bar containing the block’s time (else the nearest within five minutes); tokens at a public
              price aggregator’s historical price for that moment. A price the aggregator gives with a confidence under 0.9 is kept and its
              confidence stored. In the offline demo, prices are simulated and labelled so.
            </p>
          ),
        },
        {
          id: 'exchanges',
          heading: 'Exchange inflows and outflows',
          body: (
            <p>
              Exchange hot and cold wallets come from a maintained public list of labelled Ethereum addresses. A transfer to one of them is an exchange
              inflow, a transfer from one an exchange outflow; netflow is inflow minus outflow, per hour and per day, in US dollars.
            </p>
          ),
        },
        {
          id: 'confirmations',
          heading: 'Confirmations and reorganisations',
          body: (
            <p>
              A block is read once it has 12 confirmations. If the chain reorganises, the transfers of the replaced blocks are removed, and an alert sent
              for one of them is followed by a correction.
            </p>
          ),
        },
        {
          id: 'watch',
          heading: 'Live feed and watchlist',
          body: (
            <p>
              Signed in, the <Link to={WHALES_FEED_PATH}>live feed</Link> shows new whale transfers as they are confirmed, filtered by token, minimum value,
              direction and exchange, and the <Link to={WHALES_WATCHLIST_PATH}>watchlist</Link> alerts you when an address you watch moves funds:
              immediately, or in an hourly or daily digest.
            </p>
          ),
        },
      ]}
    />
  );
}

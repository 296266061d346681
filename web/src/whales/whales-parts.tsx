// Pieces shared by the whales screens: the section tabs, the data-source note, the transfers table
// (on phones each transfer is a card), an address with its label.
import { Link } from 'react-router-dom';
import { SectionTabs } from '../layout/section-tabs';
import type { WhaleAddressLabel, WhaleFeedSource, WhaleTransferView } from '@tickerbell/jobs/whales/shapes';
import {
  TRANSACTION_TYPE_LABELS,
  addressName,
  ageOf,
  blockTimeParts,
  formatAmount,
  formatPrice,
  formatUsd,
  shortAddress,
  tokenName,
} from './whales-client';
import { WHALES_EXCHANGES_PATH, WHALES_FEED_PATH, WHALES_WATCHLIST_PATH, whaleAddressPath } from './whales-paths';

/** The three whales screens, as tabs under the page heading. */
export function WhalesTabs() {
  return (
    <SectionTabs
      label="Whale screens"
      tabs={[
        { to: WHALES_FEED_PATH, label: 'Live feed', end: true },
        { to: WHALES_WATCHLIST_PATH, label: 'Watchlist' },
        { to: WHALES_EXCHANGES_PATH, label: 'Exchange netflow' },
      ]}
    />
  );
}

/** Says where the rows come from, and how far the chain has been read. */
export function SourceNote({ source }: { source: WhaleFeedSource }) {
  const checkpoint = source.checkpointBlock ? (
    <>
      Read up to block {Number(source.checkpointBlock).toLocaleString('en-US')}
      {source.checkpointTime && (
        <>
          {' '}
          (<time dateTime={source.checkpointTime} title={`${blockTimeParts(source.checkpointTime).date} ${blockTimeParts(source.checkpointTime).time}`}>{ageOf(source.checkpointTime)}</time>)
        </>
      )}
      .
    </>
  ) : (
    <>No block has been read yet.</>
  );
  if (source.kind === 'replay') {
    return (
      <p className="whale-note" role="note">
        <span className="badge whale-badge--replay">Replay data</span> These transfers come from the offline replay chain: recorded mainnet blocks
        varied and renumbered, with simulated prices where no recorded price exists. No Ethereum node is configured. {checkpoint}
      </p>
    );
  }
  return (
    <p className="whale-source">
      <span className="whale-live-dot" aria-hidden="true" /> Live Ethereum mainnet, 12 confirmations. {checkpoint}
    </p>
  );
}

/** An address: its name (the viewer's label, the public label, or shortened), linked to its page. */
export function AddressCell({ address, label }: { address: string | null; label: WhaleAddressLabel | null }) {
  if (address === null) return <span className="data-table__sub">Contract creation</span>;
  const name = addressName(address, label);
  const named = name !== shortAddress(address);
  return (
    <>
      <Link to={whaleAddressPath(address)} className={named ? 'whale-address whale-address--named' : 'whale-address'} title={address}>
        {name}
      </Link>
      {label?.addressType === 'exchange' && <span className="badge whale-badge--exchange">Exchange</span>}
      {label?.addressType && label.addressType !== 'exchange' && <span className="badge">{label.addressType}</span>}
      {named && <span className="data-table__sub whale-mono">{shortAddress(address)}</span>}
    </>
  );
}

export function TypeBadge({ type }: { type: WhaleTransferView['transactionType'] }) {
  return <span className={`whale-type whale-type--${type}`}>{TRANSACTION_TYPE_LABELS[type]}</span>;
}

interface TransfersTableProps {
  rows: readonly WhaleTransferView[];
  caption: string;
  /** Transfers that arrived live since the page was opened: highlighted. */
  newIds?: ReadonlySet<string>;
  busy?: boolean;
  /** The time the ages ("3 min ago") count from. */
  now?: number;
}

export function TransfersTable({ rows, caption, newIds, busy = false, now = Date.now() }: TransfersTableProps) {
  return (
    <div className="table-scroll whale-table-wrap" role="region" aria-label={caption} tabIndex={0} aria-busy={busy}>
      <table className="data-table data-table--cards data-table--grid-cards whale-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col" className="num">
              USD
            </th>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">Type</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const fresh = newIds?.has(row.id) === true;
            const when = blockTimeParts(row.blockTime);
            return (
              <tr key={row.id} className={fresh ? 'whale-row--new data-table__row--fresh' : undefined} data-row-id={row.id}>
                <td data-label="Time" className="nowrap">
                  <time dateTime={row.blockTime} title={`${when.date} ${when.time}`}>
                    {ageOf(row.blockTime, now)}
                  </time>
                  {fresh && <span className="badge whale-badge--new">New</span>}
                  <span className="data-table__sub">
                    {when.time.replace(' UTC', '')} · block {Number(row.blockNumber).toLocaleString('en-US')} ·{' '}
                    <a href={row.explorerUrl} target="_blank" rel="noreferrer">
                      Tx<span className="visually-hidden"> {row.txHash} on Etherscan (opens in a new tab)</span>
                    </a>
                  </span>
                </td>
                <td data-label="Amount" className="num whale-strong">
                  {row.amount === null ? (
                    <span className="whale-unpriced" title={`The token's decimals are unknown: ${row.rawAmount} in its base units`}>
                      Amount unknown
                    </span>
                  ) : (
                    formatAmount(row.amount)
                  )}{' '}
                  <span className="whale-token">{tokenName(row)}</span>
                  {row.usdPrice !== null && (
                    <span className="data-table__sub">
                      @ {formatPrice(row.usdPrice)}
                      {row.priceSource === 'simulated' && (
                        <>
                          {' '}
                          <span className="badge whale-badge--simulated" title="A simulated price (the offline replay), not a market price">
                            Simulated
                          </span>
                        </>
                      )}
                    </span>
                  )}
                </td>
                <td data-label="USD" className="num whale-strong">
                  {row.usdValue === null ? (
                    <span className="whale-unpriced" title="No price for this token at the block's time: no USD value is guessed">
                      No price
                    </span>
                  ) : (
                    formatUsd(row.usdValue)
                  )}
                </td>
                <td data-label="From" className="whale-party">
                  <AddressCell address={row.from} label={row.fromLabel} />
                </td>
                <td data-label="To" className="whale-party">
                  <AddressCell address={row.to} label={row.toLabel} />
                </td>
                <td data-label="Type">
                  <TypeBadge type={row.transactionType} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

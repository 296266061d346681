// /dashboard/whales/addresses/:address: what is known about an address (its label, the viewer's
// own label), watching it with alert settings, its USD flows over 30 days, its balance changes per
// token and its recorded transfers.
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { WhaleAddressPage, WhaleWatchView } from '@tickerbell/jobs/whales/shapes';
import { messageOf } from '../accounts/auth-client';
import { useTheme } from '../theme/theme-provider';
import { NetflowChart } from './whales-charts';
import { ETHERSCAN_ADDRESS, addressName, formatAmount, formatNetUsd, getAddressPage, isAddress, removeWatch, shortAddress } from './whales-client';
import { WHALES_FEED_PATH } from './whales-paths';
import { TransfersTable } from './whales-parts';
import { WatchForm } from './whales-watch-form';
import { alertSummary } from './whales-watchlist-page';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import './whales.css';

function WatchPanel({ page, onChange }: { page: WhaleAddressPage; onChange: (watch: WhaleWatchView | null) => void }) {
  const { watch } = page;
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState<{ state: 'idle' | 'removing' } | { state: 'done'; message: string } | { state: 'failed'; message: string }>({ state: 'idle' });
  const name = addressName(page.label.address, page.label);

  const stop = () => {
    if (!watch) return;
    setStatus({ state: 'removing' });
    removeWatch(watch.id)
      .then(() => {
        onChange(null);
        setStatus({ state: 'done', message: `You no longer watch ${name}.` });
      })
      .catch((error: unknown) => setStatus({ state: 'failed', message: messageOf(error) }));
  };

  return (
    <section className="dashboard-panel whale-address-grid__side" aria-labelledby="whale-watch-title">
      <h2 id="whale-watch-title">{watch ? 'Watching' : 'Watch this address'}</h2>
      {watch && !editing ? (
        <>
          <p className="whale-watch-state">
            <strong>{alertSummary(watch)}</strong>
            {watch.customLabel && <span className="data-table__sub">Your label: {watch.customLabel}</span>}
          </p>
          <div className="whale-watch-form__actions">
            <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
              Edit alerts
            </button>
            <button type="button" className="button button--ghost" onClick={stop} disabled={status.state === 'removing'}>
              Stop watching
            </button>
          </div>
        </>
      ) : (
        <>
          {!watch && <p className="whale-watch-state">Not watched: choose how its transfers should alert you.</p>}
          <WatchForm
            key={watch ? `edit-${watch.id}` : 'add'}
            watch={watch}
            address={page.label.address}
            name={watch ? 'Edit watch' : 'Watch this address'}
            onCancel={watch ? () => setEditing(false) : undefined}
            onSaved={(saved, created) => {
              onChange(saved);
              setEditing(false);
              setStatus({ state: 'done', message: created ? `Watching ${addressName(saved.address, { ...saved.label, customLabel: saved.customLabel })}.` : 'Saved the alert settings.' });
            }}
          />
        </>
      )}
      {status.state === 'done' && (
        <p className="form-message form-message--success" role="status">
          {status.message}
        </p>
      )}
      {status.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          {status.message}
        </p>
      )}
    </section>
  );
}

function BalanceChanges({ page }: { page: WhaleAddressPage }) {
  if (!page.balanceChanges.length) return <p className="empty-state">No token has moved in or out of this address in the recorded transfers.</p>;
  return (
    <div className="table-scroll" role="region" aria-label="Balance changes" tabIndex={0}>
      <table className="data-table whale-flow-table">
        <caption className="visually-hidden">Amounts received and sent per token, in the recorded transfers</caption>
        <thead>
          <tr>
            <th scope="col">Token</th>
            <th scope="col" className="num">
              Received
            </th>
            <th scope="col" className="num">
              Sent
            </th>
            <th scope="col" className="num">
              Net USD
            </th>
          </tr>
        </thead>
        <tbody>
          {page.balanceChanges.map((change) => (
            <tr key={change.token ?? 'eth'}>
              <th scope="row">{change.token === null ? (change.tokenSymbol ?? 'ETH') : (change.tokenSymbol ?? shortAddress(change.token))}</th>
              <td className="num">{formatAmount(change.inAmount)}</td>
              <td className="num">{formatAmount(change.outAmount)}</td>
              <td className={`num ${Number(change.netUsd) > 0 ? 'whale-up' : Number(change.netUsd) < 0 ? 'whale-down' : ''}`}>{formatNetUsd(change.netUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function WhalesAddressPage() {
  const { address: raw = '' } = useParams();
  const address = raw.trim();
  const valid = isAddress(address);
  const [result, update, retry] = useRequest(valid ? address.toLowerCase() : '', (signal) =>
    valid ? getAddressPage(address, signal) : Promise.reject(new Error('not an address')),
  );
  const { theme } = useTheme();
  const data = shownData(result);

  const back = (
    <p className="whale-back">
      <Link to={WHALES_FEED_PATH}>← Whale transfers</Link>
    </p>
  );
  if (!valid || result.state === 'failed') {
    return (
      <div className="whales-page">
        <title>{`${shortAddress(address)} · Whales · Tickerbell`}</title>
        {back}
        <h1 className="whale-break">{shortAddress(address) || 'Address'}</h1>
        {!valid ? (
          <p className="form-message form-message--error" role="alert">
            “{address}” is not an Ethereum address: 0x followed by 40 hexadecimal characters.
          </p>
        ) : result.state === 'failed' && result.status === 404 ? (
          <p className="form-message form-message--error" role="alert">
            Nothing is recorded for {address} yet: {result.message}
          </p>
        ) : (
          result.state === 'failed' && <RequestFailed what="The address" message={result.message} onRetry={retry} />
        )}
      </div>
    );
  }
  if (!data) {
    return (
      <div className="whales-page">
        <title>{`${shortAddress(address)} · Whales · Tickerbell`}</title>
        {back}
        <h1>{shortAddress(address)}</h1>
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the address…
        </p>
      </div>
    );
  }

  const { label } = data;
  const name = addressName(label.address, label);
  return (
    <div className="whales-page">
      <title>{`${name} · Whales · Tickerbell`}</title>
      {back}
      <h1 className="whale-break">{name}</h1>
      <p className="whale-sub">
        <span className="whale-mono whale-break">{label.address}</span>
        {label.addressType && <span className={`badge${label.addressType === 'exchange' ? ' whale-badge--exchange' : ''}`}>{label.addressType}</span>}
        {label.customLabel && label.label && <span> · {label.label}</span>}
        {label.exchangeName && label.exchangeName !== label.label && <span> · {label.exchangeName}</span>} ·{' '}
        <a href={ETHERSCAN_ADDRESS(label.address)} target="_blank" rel="noreferrer">
          Etherscan<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>

      <div className="whale-address-grid">
        <div className="whale-address-grid__main">
          <section className="dashboard-panel" aria-labelledby="whale-flow-title">
            <h2 id="whale-flow-title">USD flows, last 30 days</h2>
            {data.netflow.length === 0 ? (
              <p className="empty-state">No priced transfer in or out of this address in the last 30 days.</p>
            ) : (
              <NetflowChart points={data.netflow} bucket="day" theme={theme} subject={name} tone={label.addressType === 'exchange' ? 'exchange' : 'address'} />
            )}
          </section>
          <section className="dashboard-panel" aria-labelledby="whale-balance-title">
            <h2 id="whale-balance-title">Balance changes</h2>
            <BalanceChanges page={data} />
          </section>
        </div>
        <WatchPanel page={data} onChange={(watch) => update((page) => ({ ...page, watch, label: { ...page.label, customLabel: watch?.customLabel ?? null } }))} />
      </div>

      <section className="dashboard-panel" aria-labelledby="whale-transfers-title">
        <h2 id="whale-transfers-title">Transfers</h2>
        {data.transfers.length === 0 ? (
          <p className="empty-state">No transfer of this address is recorded yet. Watched addresses’ transfers are kept as new blocks are read.</p>
        ) : (
          <TransfersTable rows={data.transfers} caption={`Transfers of ${name}`} />
        )}
      </section>
    </div>
  );
}

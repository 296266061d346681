// /dashboard/whales/watchlist: the addresses the user watches, with their alert settings: add,
// edit and remove. Alerts on a watched address are sent as its transfers are confirmed.
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { WhaleWatchView } from '@tickerbell/jobs/whales/shapes';
import { messageOf } from '../accounts/auth-client';
import { FREQUENCY_LABELS, addressName, blockTimeParts, formatUsd, getWatchlist, removeWatch, shortAddress } from './whales-client';
import { whaleAddressPath } from './whales-paths';
import { WhalesTabs } from './whales-parts';
import { WatchForm } from './whales-watch-form';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import './whales.css';

/** A watch's alert settings in words. */
export function alertSummary(watch: Pick<WhaleWatchView, 'alertEnabled' | 'alertThreshold' | 'alertFrequency' | 'timeZone'>): string {
  if (!watch.alertEnabled) return 'Alerts off';
  const threshold = watch.alertThreshold === null ? 'the global whale threshold' : formatUsd(watch.alertThreshold);
  const when = watch.alertFrequency === 'daily' ? `daily digest (midnight ${watch.timeZone})` : FREQUENCY_LABELS[watch.alertFrequency].toLowerCase();
  return `≥ ${threshold} · ${when}`;
}

function WatchRow({ watch, onEdit, onRemoved }: { watch: WhaleWatchView; onEdit: () => void; onRemoved: (message: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [state, setState] = useState<{ state: 'idle' | 'removing' } | { state: 'failed'; message: string }>({ state: 'idle' });
  const name = addressName(watch.address, { ...watch.label, customLabel: watch.customLabel });
  const remove = () => {
    setState({ state: 'removing' });
    removeWatch(watch.id)
      .then(() => onRemoved(`You no longer watch ${name}.`))
      .catch((error: unknown) => setState({ state: 'failed', message: messageOf(error) }));
  };
  return (
    <tr>
      <td data-label="Address">
        <Link to={whaleAddressPath(watch.address)} className="whale-address whale-address--named" title={watch.address}>
          {name}
        </Link>
        <span className="data-table__sub whale-mono">{shortAddress(watch.address)}</span>
        {watch.label.label && watch.customLabel && <span className="data-table__sub">{watch.label.label}</span>}
      </td>
      <td data-label="Alerts">{alertSummary(watch)}</td>
      <td data-label="Last alert" className="nowrap">
        {watch.lastAlertAt ? (
          <time dateTime={watch.lastAlertAt}>
            {blockTimeParts(watch.lastAlertAt).date} {blockTimeParts(watch.lastAlertAt).time}
          </time>
        ) : (
          'None yet'
        )}
      </td>
      <td className="whale-actions">
        {confirming ? (
          <span className="whale-confirm" role="group" aria-label={`Remove ${name}?`}>
            <span>Stop watching?</span>
            <button type="button" className="button button--danger button--small" onClick={remove} disabled={state.state === 'removing'}>
              Remove
            </button>
            <button type="button" className="button button--ghost button--small" onClick={() => setConfirming(false)} disabled={state.state === 'removing'}>
              Keep
            </button>
          </span>
        ) : (
          <>
            <button type="button" className="button button--secondary button--small" onClick={onEdit} aria-label={`Edit ${name}`}>
              Edit
            </button>
            <button type="button" className="button button--ghost button--small" onClick={() => setConfirming(true)} aria-label={`Remove ${name}`}>
              Remove
            </button>
          </>
        )}
        {state.state === 'failed' && (
          <span className="form-message form-message--error" role="alert">
            {state.message}
          </span>
        )}
      </td>
    </tr>
  );
}

export function WhalesWatchlistPage() {
  const [result, update, retry] = useRequest('watchlist', (signal) => getWatchlist(signal));
  const data = shownData(result);
  const [editing, setEditing] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // Bumped after each add: a fresh, empty add form.
  const [addKey, setAddKey] = useState(0);
  const editRef = useRef<HTMLElement>(null);
  const watching = editing === null ? null : (data?.find((watch) => watch.id === editing) ?? null);

  const saved = (watch: WhaleWatchView, created: boolean) => {
    const name = addressName(watch.address, { ...watch.label, customLabel: watch.customLabel });
    update((list) => (created ? [watch, ...list.filter((entry) => entry.id !== watch.id)] : list.map((entry) => (entry.id === watch.id ? watch : entry))));
    setMessage(created ? `Watching ${name}.` : `Saved the alerts for ${name}.`);
    setEditing(null);
    if (created) setAddKey((n) => n + 1);
  };

  return (
    <div className="whales-page">
      <title>Whale watchlist · Tickerbell</title>
      <h1>Whale watchlist</h1>
      <WhalesTabs />
      <p className="page-lede">
        Watch any Ethereum address: a fund, an exchange wallet, a token treasury. Its transfers at or above your threshold alert you once each, after 12
        confirmations; a transfer undone by a chain reorganisation is corrected.
      </p>

      <div className="whale-watch-stack">
        <section className="dashboard-panel" aria-labelledby="whale-list-title">
          <h2 id="whale-list-title">Watched addresses{data && data.length > 0 ? ` (${data.length})` : ''}</h2>
          {result.state === 'failed' && <RequestFailed what="Your watchlist" message={result.message} onRetry={retry} />}
          {result.state === 'loading' && data === null && (
            <p role="status" className="page-loading">
              <span className="spinner" aria-hidden="true" /> Loading your watchlist…
            </p>
          )}
          {data !== null &&
            (data.length === 0 ? (
              <p className="empty-state">You watch no address yet. Add one with the form, or open an address from the live feed and watch it there.</p>
            ) : (
              <div className="table-scroll" role="region" aria-label="Watched addresses" tabIndex={0}>
                <table className="data-table data-table--cards whale-watch-table">
                  <caption className="visually-hidden">Watched addresses and their alerts</caption>
                  <thead>
                    <tr>
                      <th scope="col">Address</th>
                      <th scope="col">Alerts</th>
                      <th scope="col">Last alert</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.map((watch) => (
                      <WatchRow
                        key={watch.id}
                        watch={watch}
                        onEdit={() => {
                          setMessage(null);
                          setEditing(watch.id);
                          editRef.current?.scrollIntoView?.({ block: 'start' });
                        }}
                        onRemoved={(text) => {
                          update((list) => list.filter((entry) => entry.id !== watch.id));
                          if (editing === watch.id) setEditing(null);
                          setMessage(text);
                        }}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            ))}
        </section>
        <section className="dashboard-panel" aria-labelledby="whale-add-title" ref={editRef}>
          {watching ? (
            <>
              <h2 id="whale-add-title">Edit {addressName(watching.address, { ...watching.label, customLabel: watching.customLabel })}</h2>
              <p className="data-table__sub whale-mono whale-break">{watching.address}</p>
              <WatchForm key={`edit-${watching.id}`} watch={watching} onSaved={saved} onCancel={() => setEditing(null)} name="Edit watch" />
            </>
          ) : (
            <>
              <h2 id="whale-add-title">Watch an address</h2>
              <WatchForm key={`add-${addKey}`} watch={null} onSaved={saved} name="Watch an address" />
            </>
          )}
          {message && (
            <p className="form-message form-message--success" role="status">
              {message}
            </p>
          )}
        </section>
      </div>
    </div>
  );
}

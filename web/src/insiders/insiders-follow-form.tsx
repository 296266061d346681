// Following a company's insider trades, and what notifies the user: a cluster buy, an officer or
// director purchase of at least a value they choose, unusual activity.
import { useState, type FormEvent } from 'react';
import { OFFICER_BUY_DEFAULT_MIN_VALUE, type InsiderFollowSettings } from '@tickerbell/jobs/insiders/shapes';
import { messageOf } from '../accounts/auth-client';
import { formatUsd, removeFollow, saveFollow } from './insiders-client';

const DEFAULTS: InsiderFollowSettings = { notifyClusterBuy: true, officerBuyMinValue: OFFICER_BUY_DEFAULT_MIN_VALUE, notifyUnusualActivity: true };

interface FollowFormProps {
  /** The ticker (or CIK) the api knows the company by. */
  companyKey: string;
  label: string;
  follow: InsiderFollowSettings | null;
  /** The company has no lines stored yet: following it fetches its recent filings. */
  noFilings: boolean;
  onChange?: (follow: InsiderFollowSettings | null) => void;
}

type Status = { state: 'idle' } | { state: 'saving' } | { state: 'saved'; message: string } | { state: 'failed'; message: string };

export function InsiderFollowForm({ companyKey, label, follow, noFilings, onChange }: FollowFormProps) {
  const [current, setCurrent] = useState<InsiderFollowSettings | null>(follow);
  const [draft, setDraft] = useState<InsiderFollowSettings>(follow ?? DEFAULTS);
  // The last minimum typed, kept while the officer alert is switched off.
  const [minValue, setMinValue] = useState<string>(String(follow?.officerBuyMinValue ?? OFFICER_BUY_DEFAULT_MIN_VALUE));
  const [status, setStatus] = useState<Status>({ state: 'idle' });
  const officerOn = draft.officerBuyMinValue !== null;
  const minValid = /^\d{1,12}(\.\d{1,2})?$/.test(minValue.trim());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (officerOn && !minValid) {
      setStatus({ state: 'failed', message: 'Enter the minimum purchase value in US dollars, e.g. 25000.' });
      return;
    }
    const settings: InsiderFollowSettings = { ...draft, officerBuyMinValue: officerOn ? Number(minValue.trim()) : null };
    setStatus({ state: 'saving' });
    saveFollow(companyKey, settings)
      .then((saved) => {
        const next = { notifyClusterBuy: saved.notifyClusterBuy, officerBuyMinValue: saved.officerBuyMinValue, notifyUnusualActivity: saved.notifyUnusualActivity };
        const first = current === null;
        setCurrent(next);
        setDraft(next);
        onChange?.(next);
        setStatus({
          state: 'saved',
          message: first
            ? `Following ${label}.${noFilings ? ' Its recent Form 4 filings are being fetched from EDGAR; they appear here when stored.' : ''}`
            : `Saved what notifies you about ${label}.`,
        });
      })
      .catch((error: unknown) => setStatus({ state: 'failed', message: messageOf(error) }));
  };

  const unfollow = () => {
    setStatus({ state: 'saving' });
    removeFollow(companyKey)
      .then(() => {
        setCurrent(null);
        onChange?.(null);
        setStatus({ state: 'saved', message: `You no longer follow ${label}.` });
      })
      .catch((error: unknown) => setStatus({ state: 'failed', message: messageOf(error) }));
  };

  return (
    <form className="insider-follow" aria-label={`Follow ${label}`} onSubmit={submit}>
      <p className="insider-follow__state">
        {current === null ? (
          <>Not following: choose what should notify you, then follow.</>
        ) : (
          <>
            <strong>Following.</strong> Notifications arrive in the app, live, by push and by email (as set in your settings).
          </>
        )}
      </p>
      <fieldset className="insider-checks insider-checks--column">
        <legend>Notify me of</legend>
        <label className="insider-check">
          <input type="checkbox" checked={draft.notifyClusterBuy} onChange={(event) => setDraft({ ...draft, notifyClusterBuy: event.target.checked })} />
          <span>A cluster buy: 3 or more insiders buying on the open market within 30 days</span>
        </label>
        <label className="insider-check">
          <input
            type="checkbox"
            checked={officerOn}
            onChange={(event) => setDraft({ ...draft, officerBuyMinValue: event.target.checked ? Number(minValue) || OFFICER_BUY_DEFAULT_MIN_VALUE : null })}
          />
          <span>An officer or director buying at least</span>
        </label>
        <label className="insider-field insider-follow__min">
          <span className="insider-field__label">Minimum purchase (USD)</span>
          <input
            className="form-field__input"
            inputMode="decimal"
            value={minValue}
            disabled={!officerOn}
            aria-invalid={officerOn && !minValid}
            onChange={(event) => setMinValue(event.target.value)}
          />
        </label>
        <label className="insider-check">
          <input type="checkbox" checked={draft.notifyUnusualActivity} onChange={(event) => setDraft({ ...draft, notifyUnusualActivity: event.target.checked })} />
          <span>Unusual activity (the analytics explain why)</span>
        </label>
      </fieldset>
      <div className="insider-follow__actions">
        <button type="submit" className="button button--primary" disabled={status.state === 'saving'}>
          {current === null ? `Follow ${label}` : 'Save settings'}
        </button>
        {current !== null && (
          <button type="button" className="button button--ghost" onClick={unfollow} disabled={status.state === 'saving'}>
            Unfollow
          </button>
        )}
      </div>
      {current?.officerBuyMinValue != null && status.state !== 'failed' && (
        <p className="data-table__sub">Officer and director purchases of {formatUsd(String(current.officerBuyMinValue))} or more notify you.</p>
      )}
      {status.state === 'saved' && (
        <p className="form-message form-message--success" role="status">
          {status.message}
        </p>
      )}
      {status.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          {status.message}
        </p>
      )}
    </form>
  );
}

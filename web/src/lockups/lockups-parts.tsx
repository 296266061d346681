// Pieces shared by the lockups screens: the risk score with its colour, the status and source
// badges, the data-source note, the factor breakdown, the events table and the follow controls.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { LockupEventView, LockupFollowView, LockupNoticeDays, LockupRiskFactorView, LockupSourceStatus, LockupStatus } from '@tickerbell/jobs/lockups/shapes';
import { messageOf } from '../accounts/auth-client';
import {
  LOCKUP_NOTICE_DAYS,
  RISK_LEVEL_LABELS,
  SOURCE_LABELS,
  SOURCE_TITLES,
  STATUS_LABELS,
  createFollow,
  deleteFollow,
  formatDate,
  formatDaysLeft,
  formatRisk,
  formatShare,
  formatShares,
  lockupEventPath,
  noticeText,
  riskLevel,
  trancheText,
} from './lockups-client';

/** The score out of 100 in its band's colour, with the band's name for those who do not see colour. */
export function RiskValue({ score, size = 'normal' }: { score: number; size?: 'normal' | 'large' }) {
  const level = riskLevel(score);
  return (
    <span className={`lockup-risk lockup-risk--${level}${size === 'large' ? ' lockup-risk--large' : ''}`} title={`Risk score ${formatRisk(score)} of 100 (${RISK_LEVEL_LABELS[level].toLowerCase()})`}>
      <span className="lockup-risk__score">{formatRisk(score)}</span>
      <span className="lockup-risk__level">{RISK_LEVEL_LABELS[level]}</span>
    </span>
  );
}

export function StatusBadge({ status }: { status: LockupStatus }) {
  return <span className={`badge lockup-badge--${status.replace('_', '-')}`}>{STATUS_LABELS[status]}</span>;
}

export function SourceBadge({ source }: { source: LockupEventView['dataSource'] }) {
  return (
    <span className={`badge lockup-badge--source${source === 'simulated' || source === 'sec-replay' ? ' lockup-badge--replay' : ''}`} title={SOURCE_TITLES[source]}>
      {SOURCE_LABELS[source]}
    </span>
  );
}

const UTC_DATE_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** Where the events come from: EDGAR live, or the offline replay of recorded and simulated prospectuses. */
export function SourceNote({ source, empty = false }: { source: LockupSourceStatus; empty?: boolean }) {
  // Before the first discovery, say so only when nothing is shown (events may come from a CSV).
  const last = source.lastDiscoveryAt ? (
    <>
      Last read of new prospectuses: <time dateTime={source.lastDiscoveryAt}>{UTC_DATE_TIME.format(new Date(source.lastDiscoveryAt))} UTC</time>.
    </>
  ) : empty ? (
    <>No prospectus has been read yet: the daily discovery fills this page.</>
  ) : null;
  return source.mode === 'replay' ? (
    <div className="lockup-note lockup-note--replay" role="note">
      <p>
        <span className="badge lockup-badge--replay">Replay data</span> Offline demo: two recorded SEC prospectuses and simulated offerings built from
        them (marked “Simulated”, not real companies). {last}
      </p>
    </div>
  ) : (
    <div className="lockup-note" role="note">
      <p>
        <span className="badge">Live</span> Read from the prospectuses (424B4) filed on SEC EDGAR. {last}
      </p>
    </div>
  );
}

/** One factor's points out of its weight as a bar, its input and its study. */
export function FactorList({ factors, compact = false }: { factors: readonly LockupRiskFactorView[]; compact?: boolean }) {
  return (
    <ul className={`lockup-factors${compact ? ' lockup-factors--compact' : ''}`}>
      {factors.map((factor) => (
        <li key={factor.name} className={factor.known ? 'lockup-factor' : 'lockup-factor lockup-factor--unknown'}>
          <div className="lockup-factor__head">
            <span className="lockup-factor__label">{factor.label}</span>
            <span className="lockup-factor__points">
              {factor.known ? `${formatRisk(factor.points)} of ${formatRisk(factor.weight)} pts` : `unknown · 0 of ${formatRisk(factor.weight)} pts`}
            </span>
          </div>
          <span className="lockup-bar" aria-hidden="true">
            <span className="lockup-bar__fill" style={{ width: `${factor.weight > 0 ? Math.min(100, (factor.points / factor.weight) * 100) : 0}%` }} />
          </span>
          {!compact && (
            <p className="lockup-factor__text">
              {factor.input ?? 'Not known for this event: counted as 0.'} <span className="lockup-factor__source">{factor.source}</span>
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** "VC-backed: 25 · 79.5 % of float: 18.2": the biggest factors in a few words. */
export function TopFactors({ factors }: { factors: readonly LockupRiskFactorView[] }) {
  const shown = factors.filter((factor) => factor.points > 0);
  if (shown.length === 0) return <span className="lockup-muted">—</span>;
  return (
    <span className="lockup-top-factors">
      {shown.map((factor) => (
        <span key={factor.name} className="lockup-chip" title={factor.input ?? factor.label}>
          {factor.label} +{formatRisk(factor.points)}
        </span>
      ))}
    </span>
  );
}

/** The user's ticker follows by ticker, and the calls that change them. */
export interface FollowState {
  follows: LockupFollowView[];
  onChange: (follows: LockupFollowView[]) => void;
}

/** Follow or stop following a ticker's lock-ups from a row (notified 14, 7 and 1 days before and on the day). */
export function FollowTickerButton({ ticker, state }: { ticker: string; state: FollowState }) {
  const follow = state.follows.find((item) => item.kind === 'ticker' && item.ticker === ticker);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      if (follow) {
        await deleteFollow(follow.id);
        state.onChange(state.follows.filter((item) => item.id !== follow.id));
      } else {
        const created = await createFollow({ kind: 'ticker', ticker, noticeDays: [...LOCKUP_NOTICE_DAYS] });
        state.onChange([...state.follows, created]);
      }
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className={`button button--small ${follow ? 'button--secondary' : 'button--ghost'}`}
        aria-pressed={Boolean(follow)}
        aria-label={follow ? `Following ${ticker}: stop` : `Follow ${ticker}`}
        title={follow ? `Notified ${noticeText(follow.noticeDays)}` : 'Be notified 14, 7 and 1 days before and on the day'}
        disabled={busy}
        onClick={toggle}
      >
        {follow ? 'Following' : 'Follow'}
      </button>
      {error && (
        <span className="form-message form-message--error lockup-inline-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

/** Notice-day checkboxes (14, 7, 1); the day itself is always notified. */
export function NoticeDaysField({ value, onChange, legend = 'Tell me' }: { value: readonly LockupNoticeDays[]; onChange: (days: LockupNoticeDays[]) => void; legend?: string }) {
  return (
    <fieldset className="lockup-notice">
      <legend className="lockup-field__label">{legend}</legend>
      {LOCKUP_NOTICE_DAYS.map((days) => (
        <label key={days} className="lockup-check">
          <input
            type="checkbox"
            checked={value.includes(days)}
            onChange={(event) => onChange(event.target.checked ? [...value, days].sort((a, b) => b - a) : value.filter((d) => d !== days))}
          />
          <span>
            {days} {days === 1 ? 'day' : 'days'} before
          </span>
        </label>
      ))}
      <span className="lockup-check lockup-check--fixed">and on the day</span>
    </fieldset>
  );
}

/** The events of a day or a month: one row per tranche. */
export function EventsTable({
  events,
  caption,
  today,
  follow,
  showExpiry = true,
  busy = false,
}: {
  events: readonly LockupEventView[];
  caption: string;
  today: string;
  follow?: FollowState;
  showExpiry?: boolean;
  busy?: boolean;
}) {
  return (
    <div className="table-scroll lockup-table-wrap" role="region" aria-label={caption} tabIndex={0} aria-busy={busy}>
      <table className="data-table data-table--cards data-table--grid-cards lockup-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Company</th>
            {showExpiry && <th scope="col">Expiry</th>}
            <th scope="col" className="num">
              Unlocking
            </th>
            <th scope="col" className="num">
              Of float
            </th>
            <th scope="col">Risk</th>
            <th scope="col">Top factors</th>
            <th scope="col">Status</th>
            {follow && (
              <th scope="col">
                <span className="visually-hidden">Follow</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {events.map((event) => {
            const tranche = trancheText(event);
            return (
              <tr key={event.id} data-event-id={event.id}>
                <td data-label="Company" className="data-table__wide lockup-company-cell">
                  <Link to={lockupEventPath(event.id)} className="lockup-ticker">
                    {event.ticker}
                  </Link>
                  <span className="lockup-company">{event.companyName}</span>
                  <span className="data-table__sub">
                    IPO {formatDate(event.ipoDate)}
                    {event.industry && <> · {event.industry}</>}
                    {event.vcBacked && <> · VC-backed</>}
                  </span>
                  {!showExpiry && tranche && <span className="data-table__sub">{tranche}</span>}
                </td>
                {showExpiry && (
                  <td data-label="Expiry" className="lockup-expiry-cell">
                    {event.lockupExpirationDate ? formatDate(event.lockupExpirationDate) : 'Not read'}
                    <span className="data-table__sub">{event.lockupExpirationDate ? formatDaysLeft(event.lockupExpirationDate, today) : 'needs review'}</span>
                    {tranche && <span className="data-table__sub">{tranche}</span>}
                  </td>
                )}
                <td data-label="Unlocking" className="num">
                  {event.sharesLockedUp === null ? '—' : `${formatShares(event.sharesLockedUp)} sh`}
                </td>
                <td data-label="Of float" className="num">
                  {formatShare(event.floatShare)}
                </td>
                <td data-label="Risk">
                  <RiskValue score={event.riskScore} />
                </td>
                <td data-label="Top factors" className="lockup-factors-cell">
                  <TopFactors factors={event.topFactors} />
                </td>
                <td data-label="Status">
                  <StatusBadge status={event.status} />
                  <SourceBadge source={event.dataSource} />
                </td>
                {follow && (
                  <td className="lockup-actions">
                    <FollowTickerButton ticker={event.ticker} state={follow} />
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

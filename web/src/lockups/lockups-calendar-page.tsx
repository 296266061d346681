// /dashboard/lockups: IPO lock-up expirations by month. A calendar marks each expiry day with how
// many tranches unlock and the highest risk score; a day opens its list. The list view shows the
// whole month. Filters (minimum risk, minimum share of the float, industry, VC backing), the month,
// the view and the open day live in the address bar. Events whose date could not be read are
// listed apart ("Needs review"); the user's follows (tickers, and "every lock-up above a score")
// are managed beside them.
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { LockupEventView, LockupFollowView, LockupNoticeDays } from '@tickerbell/jobs/lockups/shapes';
import { messageOf } from '../accounts/auth-client';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import {
  LOCKUPS_RESEARCH_PATH,
  LOCKUP_NOTICE_DAYS,
  MIN_FLOAT_CHOICES,
  MIN_RISK_CHOICES,
  RISK_LEVEL_LABELS,
  calendarParams,
  calendarQueryOf,
  calendarStateOf,
  createFollow,
  daysInMonth,
  deleteFollow,
  formatDate,
  formatDayShort,
  formatMonth,
  formatRisk,
  formatShare,
  getCalendar,
  getFollows,
  localToday,
  lockupEventPath,
  noticeText,
  riskLevel,
  shiftMonth,
  updateFollow,
  type CalendarState,
} from './lockups-client';
import { EventsTable, NoticeDaysField, SourceBadge, SourceNote, type FollowState } from './lockups-parts';
import './lockups.css';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

interface DaySummary {
  count: number;
  maxRisk: number;
}

/** Expiry days of the month: how many tranches and the highest score. */
export function summarizeDays(events: readonly LockupEventView[]): Map<string, DaySummary> {
  const days = new Map<string, DaySummary>();
  for (const event of events) {
    if (!event.lockupExpirationDate) continue;
    const day = days.get(event.lockupExpirationDate) ?? { count: 0, maxRisk: 0 };
    day.count += 1;
    day.maxRisk = Math.max(day.maxRisk, event.riskScore);
    days.set(event.lockupExpirationDate, day);
  }
  return days;
}

/** The month's weeks, Monday first; null pads the days of the neighbouring months. */
export function monthWeeks(month: string): (string | null)[][] {
  const first = new Date(`${month}-01T00:00:00Z`).getUTCDay();
  const lead = (first + 6) % 7;
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 1; d <= daysInMonth(month); d++) cells.push(`${month}-${String(d).padStart(2, '0')}`);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

function MonthGrid({ month, days, selected, today, onSelect }: { month: string; days: Map<string, DaySummary>; selected: string | undefined; today: string; onSelect: (day: string) => void }) {
  return (
    <table className="lockup-month" aria-label={`Lock-up expiries in ${formatMonth(month)}`}>
      <thead>
        <tr>
          {WEEKDAYS.map((name) => (
            <th key={name} scope="col" abbr={name}>
              <span aria-hidden="true">{name.slice(0, 2)}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {monthWeeks(month).map((week, w) => (
          <tr key={w}>
            {week.map((day, i) => {
              if (!day) return <td key={i} className="lockup-month__pad" />;
              const summary = days.get(day);
              const classes = ['lockup-month__day', day === today && 'lockup-month__day--today', day === selected && 'lockup-month__day--selected', summary && 'lockup-month__day--marked'].filter(Boolean).join(' ');
              const number = Number(day.slice(8));
              if (!summary) {
                return (
                  <td key={day} className={classes}>
                    <span className="lockup-month__number">{number}</span>
                  </td>
                );
              }
              const level = riskLevel(summary.maxRisk);
              return (
                <td key={day} className={classes}>
                  <button
                    type="button"
                    className="lockup-month__button"
                    aria-pressed={day === selected}
                    aria-label={`${formatDayShort(day)}: ${summary.count} ${summary.count === 1 ? 'expiry' : 'expiries'}, highest risk ${formatRisk(summary.maxRisk)} (${RISK_LEVEL_LABELS[level].toLowerCase()})`}
                    onClick={() => onSelect(day)}
                  >
                    <span className="lockup-month__number">{number}</span>
                    <span className={`lockup-month__count lockup-risk--${level}`}>{summary.count}</span>
                    <span className="lockup-month__max">max {formatRisk(summary.maxRisk)}</span>
                  </button>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Filters({ state, industries, onApply }: { state: CalendarState; industries: readonly string[]; onApply: (next: CalendarState) => void }) {
  const set = (change: Partial<CalendarState>) => onApply({ ...state, ...change, day: undefined });
  const allIndustries = state.industry && !industries.includes(state.industry) ? [...industries, state.industry] : industries;
  return (
    <form className="lockup-filters" aria-label="Lock-up filters" onSubmit={(event) => event.preventDefault()}>
      <label className="lockup-field">
        <span className="lockup-field__label">Minimum risk</span>
        <select className="form-field__input" value={state.minRisk ?? ''} onChange={(event) => set({ minRisk: event.target.value ? Number(event.target.value) : undefined })}>
          <option value="">Any score</option>
          {MIN_RISK_CHOICES.map((value) => (
            <option key={value} value={value}>
              {value} or more
            </option>
          ))}
        </select>
      </label>
      <label className="lockup-field">
        <span className="lockup-field__label">Minimum share of float</span>
        <select className="form-field__input" value={state.minFloatShare ?? ''} onChange={(event) => set({ minFloatShare: event.target.value ? Number(event.target.value) : undefined })}>
          <option value="">Any share</option>
          {MIN_FLOAT_CHOICES.map((value) => (
            <option key={value} value={value}>
              {formatShare(value, 0)} or more
            </option>
          ))}
        </select>
      </label>
      <label className="lockup-field">
        <span className="lockup-field__label">Industry</span>
        <select className="form-field__input" value={state.industry ?? ''} onChange={(event) => set({ industry: event.target.value || undefined })}>
          <option value="">Every industry</option>
          {allIndustries.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="lockup-field">
        <span className="lockup-field__label">VC backing</span>
        <select
          className="form-field__input"
          value={state.vcBacked === undefined ? '' : state.vcBacked ? 'yes' : 'no'}
          onChange={(event) => set({ vcBacked: event.target.value === '' ? undefined : event.target.value === 'yes' })}
        >
          <option value="">Any</option>
          <option value="yes">VC-backed only</option>
          <option value="no">Not VC-backed</option>
        </select>
      </label>
    </form>
  );
}

/** The user's follows: each with its notice days and a remove button, and a form for "every lock-up at or above a score". */
function FollowsPanel({ follows, loading, failed, onRetry, onChange }: { follows: LockupFollowView[]; loading: boolean; failed: string | null; onRetry: () => void; onChange: (follows: LockupFollowView[]) => void }) {
  // One "above a score" follow per user: once made, the form changes it.
  const riskFollow = follows.find((follow) => follow.kind === 'risk') ?? null;
  const [score, setScore] = useState(riskFollow ? String(riskFollow.minRiskScore ?? 0) : '60');
  const [days, setDays] = useState<LockupNoticeDays[]>(riskFollow ? riskFollow.noticeDays : [...LOCKUP_NOTICE_DAYS]);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    if (!riskFollow) return;
    setScore(String(riskFollow.minRiskScore ?? 0));
    setDays(riskFollow.noticeDays);
  }, [riskFollow?.id]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = Number(score);
    if (score.trim() === '' || !Number.isFinite(value) || value < 0 || value > 100) {
      setMessage({ ok: false, text: 'Enter a risk score from 0 to 100.' });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      if (riskFollow) {
        const saved = await updateFollow(riskFollow.id, { minRiskScore: value, noticeDays: days });
        onChange(follows.map((item) => (item.id === saved.id ? saved : item)));
      } else {
        const created = await createFollow({ kind: 'risk', minRiskScore: value, noticeDays: days });
        onChange([...follows, created]);
      }
      setMessage({ ok: true, text: `Following every lock-up with a risk score of ${formatRisk(value)} or more.` });
    } catch (caught) {
      setMessage({ ok: false, text: messageOf(caught) });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (follow: LockupFollowView) => {
    setMessage(null);
    try {
      await deleteFollow(follow.id);
      onChange(follows.filter((item) => item.id !== follow.id));
    } catch (caught) {
      setMessage({ ok: false, text: messageOf(caught) });
    }
  };

  return (
    <section className="dashboard-panel lockup-follows" aria-labelledby="lockup-follows-title">
      <h2 id="lockup-follows-title">Your lock-up alerts</h2>
      {failed ? (
        <RequestFailed what="Your follows" message={failed} onRetry={onRetry} />
      ) : loading ? (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading your follows…
        </p>
      ) : follows.length === 0 ? (
        <p className="empty-state">You follow no lock-up yet. Follow a ticker from the list, or every lock-up above a risk score below.</p>
      ) : (
        <ul className="lockup-follow-list" aria-label="Your follows">
          {follows.map((follow) => (
            <li key={follow.id}>
              <span>
                <strong>{follow.kind === 'ticker' ? follow.ticker : `Risk ${formatRisk(follow.minRiskScore ?? 0)} or more`}</strong>
                <span className="data-table__sub">Notified {noticeText(follow.noticeDays)}</span>
              </span>
              <button type="button" className="button button--ghost button--small" onClick={() => remove(follow)} aria-label={`Stop following ${follow.kind === 'ticker' ? follow.ticker : `risk ${formatRisk(follow.minRiskScore ?? 0)} or more`}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="lockup-risk-form" aria-label="Follow by risk score" onSubmit={submit} noValidate>
        <label className="lockup-field">
          <span className="lockup-field__label">Every lock-up with a risk score of at least</span>
          <input className="form-field__input" inputMode="decimal" value={score} maxLength={5} onChange={(event) => setScore(event.target.value)} />
        </label>
        <NoticeDaysField value={days} onChange={setDays} />
        <button type="submit" className="button button--primary button--small" disabled={busy}>
          {busy ? 'Saving…' : riskFollow ? 'Save' : 'Follow'}
        </button>
        {message && (
          <p className={`form-message ${message.ok ? 'form-message--success' : 'form-message--error'}`} role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </p>
        )}
      </form>
    </section>
  );
}

function ReviewList({ events }: { events: readonly LockupEventView[] }) {
  return (
    <section className="dashboard-panel lockup-review" aria-labelledby="lockup-review-title">
      <h2 id="lockup-review-title">Needs review ({events.length})</h2>
      <p className="form-field__hint">The prospectus wording of these lock-ups was not read with certainty, so no date is shown rather than a guessed one.</p>
      <ul className="lockup-review__list">
        {events.map((event) => (
          <li key={event.id}>
            <Link to={lockupEventPath(event.id)} className="lockup-ticker">
              {event.ticker}
            </Link>{' '}
            <span className="lockup-company">{event.companyName}</span>
            <span className="data-table__sub">
              IPO {formatDate(event.ipoDate)} <SourceBadge source={event.dataSource} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function LockupsCalendarPage() {
  const [params, setParams] = useSearchParams();
  const today = localToday();
  const state = calendarStateOf(params, today);
  const query = calendarQueryOf(state);
  const key = JSON.stringify(query);
  const [result, , retry] = useRequest(key, (signal) => getCalendar(query, signal));
  const data = shownData(result);
  const [followsResult, updateFollows, retryFollows] = useRequest('follows', (signal) => getFollows(signal));
  const follows = followsResult.state === 'ready' ? followsResult.data : [];
  const followState: FollowState | undefined = followsResult.state === 'ready' ? { follows, onChange: (next) => updateFollows(() => next) } : undefined;

  const apply = (next: CalendarState) => setParams(calendarParams(next, today));
  const events = data?.events ?? [];
  const days = summarizeDays(events);
  // The open day: the one in the address bar, else the first expiry day from today (or of the month).
  const marked = [...days.keys()].sort();
  const openDay = state.day ?? marked.find((day) => day >= today) ?? (state.month < today.slice(0, 7) ? marked[marked.length - 1] : marked[0]);
  const dayEvents = openDay ? events.filter((event) => event.lockupExpirationDate === openDay).sort((a, b) => b.riskScore - a.riskScore) : [];
  const filtered = state.minRisk !== undefined || state.minFloatShare !== undefined || state.industry !== undefined || state.vcBacked !== undefined;
  const busy = result.state === 'loading';
  const side = (
    <>
      {data !== null && data.review.length > 0 && <ReviewList events={data.review} />}
      <FollowsPanel
        follows={follows}
        loading={followsResult.state === 'loading'}
        failed={followsResult.state === 'failed' ? followsResult.message : null}
        onRetry={retryFollows}
        onChange={(next) => updateFollows(() => next)}
      />
    </>
  );

  return (
    <div className="lockups-page">
      <title>Lock-ups · Tickerbell</title>
      <h1>IPO lock-up expirations</h1>
      <p className="page-lede">
        When insiders’ and early investors’ shares may first be sold, one row per release step, scored 0–100 for the selling pressure the studies find.{' '}
        <Link to={LOCKUPS_RESEARCH_PATH}>How the score is made</Link>.
      </p>

      <Filters state={state} industries={data?.industries ?? []} onApply={apply} />
      <div className="lockup-toolbar">
        <div className="lockup-month-nav" role="group" aria-label="Month">
          <button type="button" className="button button--ghost button--small" onClick={() => apply({ ...state, month: shiftMonth(state.month, -1), day: undefined })} aria-label="Previous month">
            ‹
          </button>
          <h2 className="lockup-month-nav__title" aria-live="polite">
            {formatMonth(state.month)}
          </h2>
          <button type="button" className="button button--ghost button--small" onClick={() => apply({ ...state, month: shiftMonth(state.month, 1), day: undefined })} aria-label="Next month">
            ›
          </button>
          {state.month !== today.slice(0, 7) && (
            <button type="button" className="button button--ghost button--small" onClick={() => apply({ ...state, month: today.slice(0, 7), day: undefined })}>
              This month
            </button>
          )}
        </div>
        <div className="lockup-segmented" role="group" aria-label="View">
          {(['calendar', 'list'] as const).map((view) => (
            <button key={view} type="button" className={`button button--small ${state.view === view ? 'button--primary' : 'button--ghost'}`} aria-pressed={state.view === view} onClick={() => apply({ ...state, view })}>
              {view === 'calendar' ? 'Calendar' : 'List'}
            </button>
          ))}
        </div>
      </div>

      {data && <SourceNote source={data.source} empty={events.length === 0 && data.review.length === 0} />}
      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading lock-up expirations…
        </p>
      )}
      {result.state === 'failed' && <RequestFailed what="The lock-up calendar" message={result.message} onRetry={retry} />}

      {data !== null && events.length === 0 && (
        <p className="empty-state lockup-empty">
          {filtered
            ? `No lock-up expires in ${formatMonth(state.month)} with these filters. Lower the minimum risk or share of the float, or choose every industry.`
            : `No lock-up expiry is known for ${formatMonth(state.month)}. Try the next month: lock-ups usually end 90 to 180 days after an IPO.`}
          {filtered && (
            <>
              {' '}
              <button type="button" className="button button--ghost button--small" onClick={() => apply({ month: state.month, view: state.view })}>
                Clear filters
              </button>
            </>
          )}
        </p>
      )}
      {state.view === 'calendar' ? (
        <>
          <div className="lockup-layout">
            <div className="lockup-layout__main">{data !== null && <MonthGrid month={state.month} days={days} selected={openDay} today={today} onSelect={(day) => apply({ ...state, day })} />}</div>
            <div className="lockup-layout__side">{side}</div>
          </div>
          {data !== null && openDay && dayEvents.length > 0 && (
            <section className="lockup-day" aria-labelledby="lockup-day-title">
              <h2 id="lockup-day-title">
                Expiring {formatDayShort(openDay)}
                {openDay === today && ' (today)'}
              </h2>
              <EventsTable events={dayEvents} caption={`Lock-ups expiring ${formatDate(openDay)}`} today={today} follow={followState} showExpiry={false} busy={busy} />
            </section>
          )}
        </>
      ) : (
        <>
          {data !== null && events.length > 0 && (
            <EventsTable
              events={[...events].sort((a, b) => (a.lockupExpirationDate ?? '').localeCompare(b.lockupExpirationDate ?? '') || b.riskScore - a.riskScore)}
              caption={`Lock-ups expiring in ${formatMonth(state.month)}`}
              today={today}
              follow={followState}
              busy={busy}
            />
          )}
          <div className="lockup-side-row">{side}</div>
        </>
      )}
    </div>
  );
}

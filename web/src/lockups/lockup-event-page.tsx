// /dashboard/lockups/:eventId: one lock-up tranche. The figures a trader sizes it by (date, shares
// unlocking, share of the float, IPO and current price), the risk score with each factor's points,
// input and study, a price chart since the IPO with the expiry marked, the early-release triggers
// and whether they were met, the offering's other tranches, the quoted clause and who is bound,
// and the follow with its notice days.
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { LockupEventDetail, LockupFollowView, LockupNoticeDays } from '@tickerbell/jobs/lockups/shapes';
import { messageOf } from '../accounts/auth-client';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import {
  LOCKUPS_CALENDAR_PATH,
  LOCKUP_NOTICE_DAYS,
  createFollow,
  deleteFollow,
  formatDate,
  formatDaysLeft,
  formatPrice,
  formatRisk,
  formatShare,
  formatShares,
  formatUsdCompact,
  getFollows,
  getLockupEvent,
  localToday,
  lockupEventPath,
  noticeText,
  trancheText,
  updateFollow,
} from './lockups-client';
import { LockupPriceChart } from './lockup-price-chart';
import { FactorList, NoticeDaysField, RiskValue, SourceBadge, StatusBadge } from './lockups-parts';
import './lockups.css';

function Figure({ label, value, sub }: { label: string; value: ReactNode; sub?: ReactNode }) {
  return (
    <div className="lockup-figure">
      <dt className="lockup-figure__label">{label}</dt>
      <dd className="lockup-figure__value">
        {value}
        {sub && <span className="data-table__sub">{sub}</span>}
      </dd>
    </div>
  );
}

/** Follow this ticker with the chosen notice days; change or stop. */
function FollowPanel({ ticker }: { ticker: string }) {
  const [result, update, retry] = useRequest('follows', (signal) => getFollows(signal));
  const follow = result.state === 'ready' ? (result.data.find((item) => item.kind === 'ticker' && item.ticker === ticker) ?? null) : null;
  const [days, setDays] = useState<LockupNoticeDays[]>([...LOCKUP_NOTICE_DAYS]);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    if (follow) setDays(follow.noticeDays);
  }, [follow?.id]);

  const run = async (action: () => Promise<(list: LockupFollowView[]) => LockupFollowView[]>, done: string) => {
    setBusy(true);
    setMessage(null);
    try {
      const change = await action();
      update(change);
      setMessage({ ok: true, text: done });
    } catch (caught) {
      setMessage({ ok: false, text: messageOf(caught) });
    } finally {
      setBusy(false);
    }
  };

  const changed = follow !== null && [...follow.noticeDays].sort().join() !== [...days].sort().join();
  return (
    <section className="dashboard-panel" aria-labelledby="lockup-follow-title">
      <h2 id="lockup-follow-title">Alerts for {ticker}</h2>
      {result.state === 'failed' ? (
        <RequestFailed what="Your follows" message={result.message} onRetry={retry} />
      ) : result.state === 'loading' ? (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading…
        </p>
      ) : (
        <>
          <p className="lockup-panel-text">
            {follow ? `You follow ${ticker}: notified ${noticeText(follow.noticeDays)}.` : `Be notified before ${ticker}’s lock-ups end, with the shares unlocking and the top risk factors.`}
          </p>
          <NoticeDaysField value={days} onChange={setDays} />
          <div className="lockup-follow-actions">
            {follow ? (
              <>
                <button
                  type="button"
                  className="button button--primary button--small"
                  disabled={busy || !changed}
                  onClick={() => run(async () => {
                    const saved = await updateFollow(follow.id, { noticeDays: days });
                    return (list) => list.map((item) => (item.id === saved.id ? saved : item));
                  }, 'Notice days saved.')}
                >
                  Save notice days
                </button>
                <button
                  type="button"
                  className="button button--ghost button--small"
                  disabled={busy}
                  onClick={() => run(async () => {
                    await deleteFollow(follow.id);
                    return (list) => list.filter((item) => item.id !== follow.id);
                  }, `You no longer follow ${ticker}.`)}
                >
                  Unfollow
                </button>
              </>
            ) : (
              <button
                type="button"
                className="button button--primary button--small"
                disabled={busy}
                onClick={() => run(async () => {
                  const created = await createFollow({ kind: 'ticker', ticker, noticeDays: days });
                  return (list) => [...list, created];
                }, `Following ${ticker}.`)}
              >
                Follow {ticker}
              </button>
            )}
          </div>
          {message && (
            <p className={`form-message ${message.ok ? 'form-message--success' : 'form-message--error'}`} role={message.ok ? 'status' : 'alert'}>
              {message.text}
            </p>
          )}
        </>
      )}
    </section>
  );
}

function Triggers({ event }: { event: LockupEventDetail }) {
  if (event.earlyRelease.length === 0) return <p className="empty-state">The clause names no early release: the shares stay locked until the date.</p>;
  const ipo = event.ipoPrice === null ? null : Number(event.ipoPrice);
  return (
    <ul className="lockup-triggers">
      {event.earlyRelease.map((trigger, i) => (
        <li key={i} className={trigger.metOn ? 'lockup-trigger lockup-trigger--met' : 'lockup-trigger'}>
          <p className="lockup-trigger__state">
            {trigger.metOn ? <span className="badge lockup-badge--released-early">Met on {formatDate(trigger.metOn)}</span> : <span className="badge">Not met</span>}
          </p>
          <dl className="lockup-pairs">
            {trigger.priceMultiple !== null && (
              <div>
                <dt>Price</dt>
                <dd>
                  {trigger.priceMultiple.toLocaleString('en-US', { maximumFractionDigits: 2 })}× IPO{ipo !== null && <> = {formatPrice(ipo * trigger.priceMultiple)}</>}
                </dd>
              </div>
            )}
            {trigger.days !== null && (
              <div>
                <dt>For</dt>
                <dd>
                  {trigger.days}
                  {trigger.windowDays !== null && <> of {trigger.windowDays}</>} trading days
                </dd>
              </div>
            )}
            {trigger.sharePct !== null && (
              <div>
                <dt>Releases</dt>
                <dd>{formatShare(trigger.sharePct)} of the locked shares</dd>
              </div>
            )}
          </dl>
          <details className="lockup-disclosure">
            <summary>The clause’s words</summary>
            <p>{trigger.description}</p>
          </details>
        </li>
      ))}
    </ul>
  );
}

function Tranches({ event, today }: { event: LockupEventDetail; today: string }) {
  const all = [...event.siblings.filter((s) => s.id !== event.id), { id: event.id, lockupExpirationDate: event.lockupExpirationDate, sharesLockedUp: event.sharesLockedUp, tranche: event.tranche }].sort((a, b) => a.tranche - b.tranche);
  return (
    <ol className="lockup-tranches">
      {all.map((tranche) => (
        <li key={tranche.id} className={tranche.id === event.id ? 'lockup-tranches__current' : undefined} aria-current={tranche.id === event.id ? 'page' : undefined}>
          <span className="lockup-tranches__name">
            {tranche.id === event.id ? <strong>Tranche {tranche.tranche} (this page)</strong> : <Link to={lockupEventPath(tranche.id)}>Tranche {tranche.tranche}</Link>}
          </span>
          <span>
            {tranche.lockupExpirationDate ? `${formatDate(tranche.lockupExpirationDate)} · ${formatDaysLeft(tranche.lockupExpirationDate, today)}` : 'date not read'}
          </span>
          <span>{tranche.sharesLockedUp === null ? 'shares not stated' : `${formatShares(tranche.sharesLockedUp)} shares`}</span>
        </li>
      ))}
    </ol>
  );
}

export function LockupEventPage() {
  const { eventId: raw = '' } = useParams();
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
  const [result, , retry] = useRequest(String(id), (signal) => (id === null ? Promise.reject(new Error('not an event id')) : getLockupEvent(id, signal)));
  const data = shownData(result);
  const today = localToday();

  const back = (
    <p className="lockup-back">
      <Link to={LOCKUPS_CALENDAR_PATH}>← Lock-up calendar</Link>
    </p>
  );
  if (id === null || result.state === 'failed') {
    return (
      <div className="lockups-page">
        <title>Lock-up · Tickerbell</title>
        {back}
        <h1>Lock-up</h1>
        {id === null || (result.state === 'failed' && result.status === 404) ? (
          <p className="form-message form-message--error" role="alert">
            There is no lock-up event {raw ? `“${raw}”` : 'here'}. Find it again in the calendar.
          </p>
        ) : (
          result.state === 'failed' && <RequestFailed what="The lock-up" message={result.message} onRetry={retry} />
        )}
      </div>
    );
  }
  if (!data) {
    return (
      <div className="lockups-page">
        <title>Lock-up · Tickerbell</title>
        {back}
        <h1>Lock-up</h1>
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the lock-up…
        </p>
      </div>
    );
  }

  const event = data;
  const tranche = trancheText(event);
  // The last close of the chart stands in until the daily refresh stores the current price.
  const lastClose = event.prices.length ? event.prices[event.prices.length - 1]! : null;
  const price = event.currentPrice ?? lastClose?.close ?? null;
  const runUp = event.ipoPrice && price ? (Number(price) / Number(event.ipoPrice) - 1) * 100 : null;
  return (
    <div className="lockups-page">
      <title>{`${event.ticker} lock-up · Tickerbell`}</title>
      {back}
      <div className="lockup-title">
        <div>
          <h1 className="lockup-break">
            {event.ticker} <span className="lockup-title__company">{event.companyName}</span>
          </h1>
          <p className="lockup-sub">
            <StatusBadge status={event.status} />
            <SourceBadge source={event.dataSource} />
            {event.vcBacked && <span className="badge">VC-backed</span>}
            {event.industry && <span>{event.industry}</span>}
            {tranche && <span>· {tranche}</span>}
          </p>
        </div>
        <div className="lockup-title__risk">
          <span className="lockup-figure__label">Risk score</span>
          <RiskValue score={event.riskScore} size="large" />
        </div>
      </div>
      {event.status === 'needs_review' && (
        <p className="lockup-flag lockup-flag--warn" role="note">
          <strong>No date is shown: the lock-up wording needs review.</strong> {event.reviewReason ?? 'The prospectus was not read with certainty.'} Read the clause
          below.
        </p>
      )}
      {event.dataSource === 'simulated' && (
        <p className="lockup-flag" role="note">
          Simulated offering (offline demo): built from a recorded prospectus with changed names, dates and figures. Not a real company.
        </p>
      )}

      <dl className="lockup-figures">
        <Figure label="Lock-up ends" value={formatDate(event.lockupExpirationDate)} sub={event.lockupExpirationDate ? formatDaysLeft(event.lockupExpirationDate, today) : 'date not read'} />
        <Figure label="Shares unlocking" value={formatShares(event.sharesLockedUp)} sub={event.sharesLockedUp ? `${formatShares(event.sharesLockedUp, false)} shares` : undefined} />
        <Figure label="Share of float" value={formatShare(event.floatShare)} sub={event.totalSharesOutstanding ? `of ${formatShares(event.totalSharesOutstanding)} outstanding` : 'shares outstanding unknown'} />
        <Figure label="IPO" value={formatPrice(event.ipoPrice)} sub={formatDate(event.ipoDate)} />
        <Figure
          label="Last price"
          value={formatPrice(price)}
          sub={
            <>
              {runUp !== null && `${runUp >= 0 ? '+' : '−'}${Math.abs(runUp).toFixed(1)} % since IPO`}
              {event.currentPrice === null && lastClose && <> · close of {formatDate(lastClose.date)}</>}
            </>
          }
        />
        <Figure label="Market cap" value={formatUsdCompact(event.marketCap)} sub={event.marketCap === null ? 'after the daily refresh' : undefined} />
      </dl>

      <div className="lockup-grid">
        <div className="lockup-grid__main">
          <section className="dashboard-panel" aria-labelledby="lockup-chart-title">
            <h2 id="lockup-chart-title">Price since the IPO</h2>
            <LockupPriceChart
              ticker={event.ticker}
              prices={event.prices}
              ipoDate={event.ipoDate}
              ipoPrice={event.ipoPrice}
              expiry={event.lockupExpirationDate}
              triggers={event.earlyRelease}
              pricesSource={event.pricesSource}
            />
          </section>
          <section className="dashboard-panel" aria-labelledby="lockup-clause-title">
            <h2 id="lockup-clause-title">The lock-up clause</h2>
            <dl className="lockup-pairs lockup-pairs--wide">
              <div>
                <dt>Period</dt>
                <dd>{event.lockupDays === null ? 'tied to an event (see the clause)' : `${event.lockupDays} days after the prospectus date`}</dd>
              </div>
              <div>
                <dt>Who is bound</dt>
                <dd>{event.boundParties ?? 'not stated'}</dd>
              </div>
              {event.underwriters.length > 0 && (
                <div>
                  <dt>Underwriters</dt>
                  <dd>{event.underwriters.join(', ')}</dd>
                </div>
              )}
              {event.sharesOffered && (
                <div>
                  <dt>Shares offered</dt>
                  <dd>{formatShares(event.sharesOffered, false)}</dd>
                </div>
              )}
            </dl>
            {event.clause ? <blockquote className="lockup-clause">{event.clause}</blockquote> : <p className="empty-state">No clause stored for this event (loaded from a CSV without one).</p>}
            {(event.sourceUrl || event.sourceAccession) && (
              <p className="lockup-source">
                Source:{' '}
                {event.sourceUrl ? (
                  <a href={event.sourceUrl} target="_blank" rel="noreferrer noopener">
                    the prospectus{event.sourceAccession ? `, accession ${event.sourceAccession}` : ''}
                  </a>
                ) : (
                  <>accession {event.sourceAccession}</>
                )}
                .
              </p>
            )}
          </section>
        </div>
        <div className="lockup-grid__side">
          <FollowPanel ticker={event.ticker} />
          <section className="dashboard-panel" aria-labelledby="lockup-factors-title">
            <h2 id="lockup-factors-title">Why it scores {formatRisk(event.riskScore)}</h2>
            {event.factors.length === 0 ? <p className="empty-state">The score has not been computed yet.</p> : <FactorList factors={event.factors} />}
          </section>
          <section className="dashboard-panel" aria-labelledby="lockup-triggers-title">
            <h2 id="lockup-triggers-title">Early release</h2>
            <Triggers event={event} />
          </section>
          {event.tranches > 1 && (
            <section className="dashboard-panel" aria-labelledby="lockup-tranches-title">
              <h2 id="lockup-tranches-title">Release steps</h2>
              <Tranches event={event} today={today} />
            </section>
          )}
        </div>
      </div>
    </div>
  );
}

// /research/lockups (public): the IPO lock-up expirations of the next 30 days with their risk
// scores and top factors, and how Tickerbell reads the dates and scores the selling pressure.
import { Link } from 'react-router-dom';
import { LOCKUP_RESEARCH_DAYS } from '@tickerbell/jobs/lockups/shapes';
import { ContentPage } from '../pages/content-page';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import { LOCKUPS_CALENDAR_PATH, formatDate, formatDaysLeft, formatShare, formatShares, getResearch, localToday } from './lockups-client';
import { RiskValue, SourceBadge, SourceNote, TopFactors } from './lockups-parts';
import './lockups.css';

function NextDays() {
  const [result, , retry] = useRequest('research', (signal) => getResearch(signal));
  const data = shownData(result);
  const today = localToday();
  if (result.state === 'failed') return <RequestFailed what="The coming lock-up expirations" message={result.message} onRetry={retry} />;
  if (data === null) {
    return (
      <p role="status" className="page-loading">
        <span className="spinner" aria-hidden="true" /> Loading the coming expirations…
      </p>
    );
  }
  return (
    <>
      <SourceNote source={data.source} empty={data.events.length === 0} />
      {data.events.length === 0 ? (
        <p className="empty-state">No lock-up is known to expire between {formatDate(data.from)} and {formatDate(data.to)}.</p>
      ) : (
        <ol className="lockup-research" aria-label={`Lock-ups expiring by ${formatDate(data.to)}`}>
          {data.events.map((event) => (
            <li key={event.id} className="lockup-research__item">
              <div className="lockup-research__head">
                <span className="lockup-research__when">
                  <strong>{formatDate(event.lockupExpirationDate)}</strong>
                  <span className="data-table__sub">{formatDaysLeft(event.lockupExpirationDate, today)}</span>
                </span>
                <span className="lockup-research__name">
                  <span className="lockup-ticker">{event.ticker}</span> <span className="lockup-company">{event.companyName}</span>
                  <span className="data-table__sub">
                    IPO {formatDate(event.ipoDate)}
                    {event.industry && <> · {event.industry}</>}
                    {event.vcBacked && <> · VC-backed</>} <SourceBadge source={event.dataSource} />
                  </span>
                </span>
                <RiskValue score={event.riskScore} />
              </div>
              <p className="lockup-research__figures">
                {event.sharesLockedUp ? `${formatShares(event.sharesLockedUp)} shares unlock` : 'Shares unlocking not stated'}
                {event.floatShare !== null && <> · {formatShare(event.floatShare)} of the float</>}
                {event.tranches > 1 && (
                  <>
                    {' '}
                    · step {event.tranche} of {event.tranches}
                  </>
                )}
              </p>
              <TopFactors factors={event.topFactors} />
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

export function ResearchLockupsPage() {
  return (
    <ContentPage
      title="IPO lock-up expirations"
      eyebrow="Research"
      lede={
        <p>
          After an IPO, insiders and early investors usually agree not to sell for 90 to 180 days. When that lock-up ends, a large block of shares may reach the
          market at once, and studies find the price tends to weaken around the date, most for venture-backed companies. These are the lock-ups that end in the
          next {LOCKUP_RESEARCH_DAYS} days, each scored from 0 to 100.
        </p>
      }
      sections={[
        { id: 'next', heading: `The next ${LOCKUP_RESEARCH_DAYS} days`, body: <NextDays /> },
        {
          id: 'dates',
          heading: 'Where the dates come from',
          body: (
            <p>
              Each date is read from the company’s final prospectus (form 424B4) filed with the SEC: the lock-up period, who is bound, the shares covered, and any
              staged release or early release if the price holds above a level. A lock-up released in several steps is one row per step. When the wording is not
              read with certainty, the event is listed for review with no date, never a guessed one.
            </p>
          ),
        },
        {
          id: 'score',
          heading: 'The risk score',
          body: (
            <>
              <p>The score adds named factors, each worth up to its weight; an unknown input counts 0 and is said so. Every event page shows the breakdown.</p>
              <ul>
                <li>Venture-capital backing: VC-backed companies fall more at the expiry (Field and Hanka, 2001; Brav and Gompers, 2003).</li>
                <li>The share of the float that unlocks: the more shares, the more possible selling.</li>
                <li>The run-up since the IPO: holders sitting on large gains sell more (Bradley, Jordan, Roten and Yi, 2001; Brav and Gompers, 2003).</li>
                <li>Recent trading volume against the first 30 days: heavy trading before the date (Field and Hanka, 2001).</li>
                <li>High-tech or biotech: the largest drops in Bradley et al. (2001).</li>
                <li>The underwriters: a top-tier bookrunner is weighted as less risky.</li>
              </ul>
            </>
          ),
        },
        {
          id: 'alerts',
          heading: 'Alerts',
          body: (
            <p>
              Signed in, the <Link to={LOCKUPS_CALENDAR_PATH}>lock-up calendar</Link> shows every month with filters by score, share of the float, industry and VC
              backing. Follow a ticker, or every lock-up above a score, and be notified 14, 7 or 1 days before (your choice) and on the day, with the shares
              unlocking, the share of the float and the top factors.
            </p>
          ),
        },
      ]}
    />
  );
}

// /dashboard/insiders/insiders/:cik: one reporting owner, the companies they reported on (with
// their latest relationship there) and their newest transaction lines.
import { Link, useParams } from 'react-router-dom';
import { ROLE_LABELS, getInsiderPage, getScreener, rolesText } from './insiders-client';
import { INSIDERS_SCREENER_PATH, companyKey, companyPath } from './insiders-paths';
import { ReplayNote, TradesTable } from './insiders-trades-table';
import { appendPage, LoadMore, RequestFailed, shownData, useLoadMore, useRequest } from '../api/use-request';
import './insiders.css';

export function InsidersInsiderPage() {
  const { cik = '' } = useParams();
  const [result, update, retry] = useRequest(cik, (signal) => getInsiderPage(cik, signal));
  const data = shownData(result);

  const { more, loadMore } = useLoadMore(
    cik,
    data?.transactions.nextCursor,
    (cursor) => getScreener({ insiderCik: data ? data.insider.cik : cik, cursor }),
    update,
    (page, next) => ({ ...page, transactions: { ...appendPage(page.transactions, next), replay: page.transactions.replay || next.replay } }),
  );

  const back = (
    <p className="insider-back">
      <Link to={INSIDERS_SCREENER_PATH}>← Insider trades</Link>
    </p>
  );
  if (result.state === 'failed') {
    return (
      <div className="insiders-page">
        <title>{`Insider ${cik} · Tickerbell`}</title>
        {back}
        <h1>Insider {cik}</h1>
        {result.status === 404 ? (
          <p className="form-message form-message--error" role="alert">
            No reporting owner with the CIK {cik} has filed a Form 4 that Tickerbell stored.
          </p>
        ) : (
          <RequestFailed what="The insider" message={result.message} onRetry={retry} />
        )}
      </div>
    );
  }
  if (!data) {
    return (
      <div className="insiders-page">
        <title>{`Insider ${cik} · Tickerbell`}</title>
        {back}
        <h1>Insider {cik}</h1>
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the insider…
        </p>
      </div>
    );
  }
  const { insider } = data;
  return (
    <div className="insiders-page">
      <title>{`${insider.name} · insider trades · Tickerbell`}</title>
      {back}
      <h1>{insider.name}</h1>
      <p className="insider-sub">
        CIK {insider.cik}
        {insider.roles.length > 0 && ` · ${insider.roles.map((role) => ROLE_LABELS[role]).join(', ')} (latest filing)`} ·{' '}
        <a href={`https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=${insider.cik}&type=4&dateb=&owner=include&count=40`} target="_blank" rel="noreferrer">
          Filings on EDGAR
        </a>
      </p>
      <ReplayNote show={data.transactions.replay} />
      <section className="dashboard-panel" aria-labelledby="insider-companies-title">
        <h2 id="insider-companies-title">Companies reported on</h2>
        {data.companies.length === 0 ? (
          <p className="empty-state">No company yet.</p>
        ) : (
          <ul className="insider-companies">
            {data.companies.map((company) => (
              <li key={company.cik}>
                <Link to={companyPath(companyKey(company))}>
                  <span className="insider-ticker">{company.ticker ?? `CIK ${company.cik}`}</span> {company.name}
                </Link>
                <span className="data-table__sub">
                  {rolesText(company)}
                  {company.lastFiledAt && ` · last filed ${company.lastFiledAt.slice(0, 10)}`}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="dashboard-panel" aria-labelledby="insider-lines-title">
        <h2 id="insider-lines-title">Transactions</h2>
        {data.transactions.rows.length === 0 ? (
          <p className="empty-state">No transaction lines: the filings of {insider.name} reported holdings only.</p>
        ) : (
          <>
            <TradesTable rows={data.transactions.rows} caption={`Transactions of ${insider.name}`} showInsider={false} />
            <LoadMore className="insider-more" more={more} hasNext={!!data.transactions.nextCursor} onLoadMore={loadMore} label="Load more trades" failed="More trades could not be loaded" />
          </>
        )}
      </section>
    </div>
  );
}

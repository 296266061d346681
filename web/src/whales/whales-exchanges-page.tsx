// /dashboard/whales/exchanges: each labelled exchange's flows over the last 24 hours, and the
// netflow chart of the one chosen (hourly over 2 days or daily over 30), all tokens or one.
import { useSearchParams } from 'react-router-dom';
import type { WhaleExchangeSummary, WhaleNetflowBucket } from '@tickerbell/jobs/whales/shapes';
import { useTheme } from '../theme/theme-provider';
import { NetflowChart } from './whales-charts';
import { formatNetUsd, formatUsdCompact, getExchanges, getNetflow, isAddress } from './whales-client';
import { COMMON_TOKENS } from './whales-feed-page';
import { WhalesTabs } from './whales-parts';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import './whales.css';

/** How far back each bucket size looks. */
export const NETFLOW_WINDOWS: Readonly<Record<WhaleNetflowBucket, { ms: number; label: string }>> = {
  hour: { ms: 48 * 3_600_000, label: 'Hourly, last 48 hours' },
  day: { ms: 30 * 86_400_000, label: 'Daily, last 30 days' },
};

/** Busiest first: by the USD that moved either way. */
export function byVolume(list: readonly WhaleExchangeSummary[]): WhaleExchangeSummary[] {
  return [...list].sort((a, b) => Number(b.inflowUsd24h) + Number(b.outflowUsd24h) - (Number(a.inflowUsd24h) + Number(a.outflowUsd24h)) || a.exchange.localeCompare(b.exchange));
}

/** 'eth' or a contract, as the netflow api takes it; undefined = all tokens. */
function tokenOf(value: string | null): string | undefined {
  if (!value) return undefined;
  if (value.toLowerCase() === 'eth') return 'eth';
  return isAddress(value) ? value.toLowerCase() : undefined;
}

function ExchangeFlow({ exchange, bucket, token }: { exchange: string; bucket: WhaleNetflowBucket; token: string | undefined }) {
  const { theme } = useTheme();
  const [result, , retry] = useRequest(`${exchange}|${bucket}|${token ?? ''}`, (signal) => {
    const to = new Date();
    const from = new Date(to.getTime() - NETFLOW_WINDOWS[bucket].ms);
    return getNetflow({ exchange, bucket, token, from: from.toISOString(), to: to.toISOString() }, signal);
  });
  const data = shownData(result);
  if (result.state === 'failed') return <RequestFailed what={`${exchange}’s netflow`} message={result.message} onRetry={retry} />;
  if (!data) {
    return (
      <p role="status" className="page-loading">
        <span className="spinner" aria-hidden="true" /> Loading {exchange}’s netflow…
      </p>
    );
  }
  if (!data.points.length) return <p className="empty-state">No recorded transfer in or out of {exchange} in this window.</p>;
  return <NetflowChart points={data.points} bucket={data.bucket} theme={theme} subject={exchange} tone="exchange" />;
}

export function WhalesExchangesPage() {
  const [params, setParams] = useSearchParams();
  const [result, , retry] = useRequest('exchanges', (signal) => getExchanges(signal));
  const data = shownData(result);
  const list = data ? byVolume(data) : [];
  const bucket: WhaleNetflowBucket = params.get('bucket') === 'hour' ? 'hour' : 'day';
  const token = tokenOf(params.get('token'));
  const chosen = list.find((entry) => entry.exchange === params.get('exchange'))?.exchange ?? list[0]?.exchange ?? null;
  const choose = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };

  return (
    <div className="whales-page">
      <title>Exchange netflow · Whales · Tickerbell</title>
      <h1>Exchange netflow</h1>
      <WhalesTabs />
      <p className="page-lede">
        USD moving into and out of the labelled exchange wallets. Large inflows are often coins arriving to be sold; large outflows, coins leaving for custody.
        Transfers without a price at their block’s time are counted but not summed.
      </p>
      {result.state === 'failed' && <RequestFailed what="The exchanges" message={result.message} onRetry={retry} />}
      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the exchanges…
        </p>
      )}
      {data !== null && list.length === 0 && (
        <p className="empty-state">No labelled exchange wallet has a recorded transfer yet. Flows appear here as new blocks are read.</p>
      )}
      {list.length > 0 && chosen && (
        <>
          <section className="dashboard-panel" aria-labelledby="whale-exchange-chart-title">
            <div className="whale-chart-head">
              <h2 id="whale-exchange-chart-title">{chosen}</h2>
              <div className="whale-chart-controls">
                <label className="whale-field whale-field--inline">
                  <span className="whale-field__label">Exchange</span>
                  <select className="form-field__input" value={chosen} onChange={(event) => choose({ exchange: event.target.value })}>
                    {list.map((entry) => (
                      <option key={entry.exchange} value={entry.exchange}>
                        {entry.exchange}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="whale-field whale-field--inline">
                  <span className="whale-field__label">Token</span>
                  <select className="form-field__input" value={token ?? ''} onChange={(event) => choose({ token: event.target.value || undefined })}>
                    <option value="">All tokens</option>
                    {COMMON_TOKENS.map((entry) => (
                      <option key={entry.token} value={entry.token === 'ETH' ? 'eth' : entry.token}>
                        {entry.symbol}
                      </option>
                    ))}
                  </select>
                </label>
                <div className="whale-segmented" role="group" aria-label="Buckets">
                  {(['hour', 'day'] as const).map((size) => (
                    <button key={size} type="button" className={`button button--small ${bucket === size ? 'button--primary' : 'button--secondary'}`} aria-pressed={bucket === size} onClick={() => choose({ bucket: size })}>
                      {size === 'hour' ? 'Hourly' : 'Daily'}
                    </button>
                  ))}
                </div>
              </div>
            </div>
            <p className="data-table__sub">{NETFLOW_WINDOWS[bucket].label}</p>
            <ExchangeFlow exchange={chosen} bucket={bucket} token={token} />
          </section>

          <section className="dashboard-panel" aria-labelledby="whale-exchanges-title">
            <h2 id="whale-exchanges-title">Last 24 hours</h2>
            <div className="table-scroll" role="region" aria-label="Exchanges, last 24 hours" tabIndex={0}>
              <table className="data-table data-table--cards whale-exchange-table">
                <caption className="visually-hidden">USD flows of each labelled exchange over the last 24 hours, busiest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Exchange</th>
                    <th scope="col" className="num">
                      Inflow
                    </th>
                    <th scope="col" className="num">
                      Outflow
                    </th>
                    <th scope="col" className="num">
                      Net
                    </th>
                    <th scope="col" className="num">
                      Transfers
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((entry) => {
                    const net = Number(entry.netflowUsd24h);
                    return (
                      <tr key={entry.exchange} className={entry.exchange === chosen ? 'whale-row--chosen' : undefined}>
                        <th scope="row">
                          <button type="button" className="whale-link-button" aria-pressed={entry.exchange === chosen} onClick={() => choose({ exchange: entry.exchange })}>
                            {entry.exchange}
                          </button>
                        </th>
                        <td data-label="Inflow" className="num">
                          {formatUsdCompact(entry.inflowUsd24h)}
                        </td>
                        <td data-label="Outflow" className="num">
                          {formatUsdCompact(entry.outflowUsd24h)}
                        </td>
                        <td data-label="Net" className={`num whale-strong ${net > 0 ? 'whale-inflow' : net < 0 ? 'whale-outflow' : ''}`}>
                          {formatNetUsd(entry.netflowUsd24h)}
                        </td>
                        <td data-label="Transfers" className="num">
                          {entry.transfers24h}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </div>
  );
}

import type { ExchangeView } from '@tickerbell/jobs/market-hours/shapes';
import { STATUS_LABELS, TRANSITION_LABELS, formatCountdown, formatTradingDays } from './exchanges-client';

export function ExchangeTable({ exchanges, now, caption }: { exchanges: readonly ExchangeView[]; now: number; caption: string }) {
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Exchange</th>
            <th scope="col">Status</th>
            <th scope="col">Next</th>
            <th scope="col">Hours (local)</th>
            <th scope="col">Following</th>
          </tr>
        </thead>
        <tbody>
          {exchanges.map((exchange) => (
            <tr key={exchange.id}>
              <th scope="row">
                {exchange.name}
                {exchange.location && <span className="data-table__sub">{exchange.location}</span>}
              </th>
              <td>
                <span className={`state-badge state-badge--${exchange.status === 'open' ? 'up' : 'down'}`}>
                  <span className="state-badge__dot" aria-hidden="true" />
                  {STATUS_LABELS[exchange.status]}
                </span>
              </td>
              <td>
                {exchange.nextTransition ? (
                  <>
                    {TRANSITION_LABELS[exchange.nextTransition.kind]}{' '}
                    <time dateTime={exchange.nextTransition.at}>
                      {formatCountdown(now, Date.parse(exchange.nextTransition.at))}
                    </time>
                  </>
                ) : (
                  'No session scheduled'
                )}
              </td>
              <td>
                {exchange.open}–{exchange.close} <span className="data-table__sub">{formatTradingDays(exchange.days)} · {exchange.timezone}</span>
              </td>
              <td>{exchange.following ? 'Yes' : 'No'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

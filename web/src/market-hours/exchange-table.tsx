import type { ExchangeView } from '@tickerbell/jobs/market-hours/shapes';
import { STATUS_LABELS, TRANSITION_LABELS, formatCountdown, formatTradingDays, formatTradingHours, groupExchangesByRegion, sortExchangesByName } from './exchanges-client';
import type { ExchangeFollowing } from './use-exchanges';
import './market-hours.css';

const COLUMNS = 5;

/** Follow / Unfollow one exchange; its name is part of the button's name, so every row's differs. */
export function FollowExchangeButton({ exchange, follow }: { exchange: ExchangeView; follow: ExchangeFollowing }) {
  const busy = follow.pending.has(exchange.id);
  return (
    <button
      type="button"
      className={`button button--small ${exchange.following ? 'button--ghost exchange-follow--on' : 'button--secondary'} exchange-follow`}
      aria-pressed={exchange.following}
      aria-busy={busy || undefined}
      disabled={busy}
      onClick={() => follow.toggleFollow(exchange)}
    >
      {exchange.following ? 'Unfollow' : 'Follow'}
      <span className="visually-hidden"> {exchange.name}</span>
    </button>
  );
}

function ExchangeRow({ exchange, now, follow }: { exchange: ExchangeView; now: number; follow: ExchangeFollowing | undefined }) {
  return (
    <tr className="exchange-table__row">
      <th scope="row" className="exchange-table__name">
        {exchange.name}
        {follow && exchange.following && (
          <>
            {/* A space, not a margin: when the badge wraps, it starts at the line's start. */}{' '}
            <span className="exchange-table__following">Following</span>
          </>
        )}
        {exchange.location && <span className="data-table__sub">{exchange.location}</span>}
      </th>
      <td className="exchange-table__status">
        <span className={`state-badge state-badge--${exchange.status === 'open' ? 'up' : 'down'}`}>
          <span className="state-badge__dot" aria-hidden="true" />
          {STATUS_LABELS[exchange.status]}
        </span>
      </td>
      <td className="exchange-table__next">
        {exchange.nextTransition ? (
          <>
            {TRANSITION_LABELS[exchange.nextTransition.kind]}{' '}
            <time dateTime={exchange.nextTransition.at}>{formatCountdown(now, Date.parse(exchange.nextTransition.at))}</time>
          </>
        ) : (
          'No session scheduled'
        )}
      </td>
      <td className="exchange-table__hours">
        {formatTradingHours(exchange)}{' '}
        <span className="data-table__sub">
          {formatTradingDays(exchange.days)} · {exchange.timezone}
        </span>
      </td>
      <td className="exchange-table__action">{follow ? <FollowExchangeButton exchange={exchange} follow={follow} /> : exchange.following ? 'Yes' : 'No'}</td>
    </tr>
  );
}

/**
 * Exchanges by name, or grouped by region; with `follow`, each row has its Follow / Unfollow
 * button (without it, read-only: the demo). Below 640 px the rows become cards, with the button
 * beside the name, so nothing needs a sideways scroll.
 */
export function ExchangeTable({
  exchanges,
  now,
  caption,
  follow,
  byRegion = false,
}: {
  exchanges: readonly ExchangeView[];
  now: number;
  caption: string;
  follow?: ExchangeFollowing;
  byRegion?: boolean;
}) {
  const groups = byRegion ? groupExchangesByRegion(exchanges) : [{ region: undefined, exchanges: sortExchangesByName(exchanges) }];
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="data-table exchange-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Exchange</th>
            <th scope="col">Status</th>
            <th scope="col">Next</th>
            <th scope="col">Hours (local)</th>
            <th scope="col">{follow ? <span className="visually-hidden">Follow</span> : 'Following'}</th>
          </tr>
        </thead>
        {groups.map((group) => (
          <tbody key={group.region ?? 'all'}>
            {group.region && (
              <tr className="exchange-table__region">
                <th scope="rowgroup" colSpan={COLUMNS}>
                  {group.region}
                </th>
              </tr>
            )}
            {group.exchanges.map((exchange) => (
              <ExchangeRow key={exchange.id} exchange={exchange} now={now} follow={follow} />
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}

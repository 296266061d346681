import { ExchangeTable } from './exchange-table';
import { useExchanges, useNow } from './use-exchanges';

export function ExchangesPage() {
  const result = useExchanges();
  const now = useNow();
  return (
    <>
      <title>Exchanges · Tickerbell</title>
      <h1>Exchanges</h1>
      <p className="page-lede">
        Status and next open or close of every exchange, in its own time zone. Notifications fire 10 minutes before
        and right after each open and close of the exchanges you follow: follow or unfollow them here.
      </p>
      {result.state === 'loading' && <p role="status">Loading exchanges…</p>}
      {result.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          Exchanges could not be loaded: {result.message}
        </p>
      )}
      {result.state === 'ready' &&
        (result.exchanges.length === 0 ? (
          <p className="empty-state">No exchanges have been imported on this install yet.</p>
        ) : (
          <ExchangeTable exchanges={result.exchanges} now={now} caption="All exchanges" follow={result} byRegion />
        ))}
    </>
  );
}

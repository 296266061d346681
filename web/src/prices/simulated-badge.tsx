// Shown wherever prices come from the simulated feed (docs/prices.md): the data is not real.
import './prices.css';

export function SimulatedBadge({ what = 'prices' }: { what?: string }) {
  return (
    <span className="simulated-badge" role="note" title={`These ${what} come from Tickerbell's simulated feed (no market data source is reachable), not from a market.`}>
      Simulated data
    </span>
  );
}

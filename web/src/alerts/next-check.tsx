// A technical alert is checked when its bar closes, not on every tick: the list says when that is,
// so "Never" for up to a day is not a silent wait. Re-renders itself when the time has come.
import { useEffect, useState } from 'react';
import { nextTechnicalCheck } from '@tickerbell/jobs/alerts/shapes';
import type { CandleInterval } from '@tickerbell/jobs/prices/shapes';
import { formatCheckTime } from './alert-time';

export function NextCheck({ interval }: { interval: CandleInterval }) {
  const [now, setNow] = useState(() => new Date());
  const next = nextTechnicalCheck(interval, now);
  useEffect(() => {
    const timer = setTimeout(() => setNow(new Date()), Math.max(0, next.getTime() - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [next.getTime()]);
  return (
    <span className="data-table__sub alert-next-check">
      Checked when each {interval} bar closes: next at <time dateTime={next.toISOString()}>{formatCheckTime(next, now)}</time>
    </span>
  );
}

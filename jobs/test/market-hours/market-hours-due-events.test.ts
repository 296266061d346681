import { DEFAULT_STALE_AFTER_MS, dueMarketEvents, type DueMarketEvent } from '../../src/market-hours/market-hours';
import { bundledCalendar } from './market-hours-fixtures';

const MINUTE = 60_000;
const at = (s: string) => new Date(s);
const XNYS = () => bundledCalendar('XNYS');
const summary = (events: DueMarketEvent[]) => events.map((e) => [e.exchangeId, e.kind, e.at.toISOString()]);

/** Runs the rule every `stepMs` from `from` to `to`, each run passing the previous run's time. */
function simulate(calendars: ReturnType<typeof XNYS>[], from: Date, to: Date, stepMs: number) {
  const sent: DueMarketEvent[] = [];
  let lastRunAt: Date | null = null;
  for (let t = from.getTime(); t <= to.getTime(); t += stepMs) {
    const now = new Date(t);
    sent.push(...dueMarketEvents(calendars, { lastRunAt, now }).due);
    lastRunAt = now;
  }
  return sent;
}

describe('market-hours: which events a market-clock run must send', () => {
  it('runs every minute send each of the four events once, at its time', () => {
    const sent = simulate([XNYS()], at('2026-11-23T13:00:00Z'), at('2026-11-23T22:00:00Z'), MINUTE);
    expect(summary(sent)).toEqual([
      ['XNYS', 'opening_soon', '2026-11-23T14:20:00.000Z'],
      ['XNYS', 'opened', '2026-11-23T14:30:00.000Z'],
      ['XNYS', 'closing_soon', '2026-11-23T20:50:00.000Z'],
      ['XNYS', 'closed', '2026-11-23T21:00:00.000Z'],
    ]);
    expect(sent.find((e) => e.kind === 'opening_soon')?.minutesToTransition).toBe(10);
  });

  it('a run 5 minutes late still sends what fell due, telling the minutes actually left', () => {
    const { due, dropped } = dueMarketEvents([XNYS()], { lastRunAt: at('2026-11-23T14:19:00Z'), now: at('2026-11-23T14:25:00Z') });
    expect(summary(due)).toEqual([['XNYS', 'opening_soon', '2026-11-23T14:20:00.000Z']]);
    expect(due[0].minutesToTransition).toBe(5);
    expect(dropped).toEqual([]);
  });

  it('a late run past the open sends "opened" and drops the outdated "opening soon"', () => {
    const { due, dropped } = dueMarketEvents([XNYS()], { lastRunAt: at('2026-11-23T14:19:00Z'), now: at('2026-11-23T14:31:00Z') });
    expect(summary(due)).toEqual([['XNYS', 'opened', '2026-11-23T14:30:00.000Z']]);
    expect(dropped.map((d) => [d.event.kind, d.reason])).toEqual([['opening_soon', 'superseded']]);
  });

  it('after a long outage, events older than the stale limit are dropped, not sent hours late', () => {
    const { due, dropped } = dueMarketEvents([XNYS()], { lastRunAt: at('2026-11-23T12:00:00Z'), now: at('2026-11-23T20:52:00Z') });
    expect(summary(due)).toEqual([['XNYS', 'closing_soon', '2026-11-23T20:50:00.000Z']]);
    expect(dropped.map((d) => [d.event.kind, d.reason])).toEqual([
      ['opening_soon', 'stale'],
      ['opened', 'stale'],
    ]);
  });

  it('the stale limit is a boundary: exactly at the limit is sent, one millisecond past it is dropped', () => {
    const opened = at('2026-11-23T14:30:00Z').getTime();
    const justInTime = dueMarketEvents([XNYS()], { lastRunAt: at('2026-11-23T14:29:00Z'), now: new Date(opened + DEFAULT_STALE_AFTER_MS) });
    expect(justInTime.due.map((e) => e.kind)).toEqual(['opened']);
    const tooLate = dueMarketEvents([XNYS()], { lastRunAt: at('2026-11-23T14:29:00Z'), now: new Date(opened + DEFAULT_STALE_AFTER_MS + 1) });
    expect(tooLate.due).toEqual([]);
    expect(tooLate.dropped.map((d) => d.reason)).toEqual(['stale']);
  });

  it('a first run ever looks back only over the stale limit', () => {
    // The window is (14:19, 14:34]: opening soon (14:20) is in it but outdated, opened (14:30) is sent.
    const { due, dropped } = dueMarketEvents([XNYS()], { lastRunAt: null, now: at('2026-11-23T14:34:00Z') });
    expect(summary(due)).toEqual([['XNYS', 'opened', '2026-11-23T14:30:00.000Z']]);
    expect(dropped.map((d) => [d.event.kind, d.reason])).toEqual([['opening_soon', 'superseded']]);
  });

  it('sends nothing twice: overlapping runs (two workers, a restart) skip keys already sent', () => {
    const window = { lastRunAt: at('2026-11-23T14:25:00Z'), now: at('2026-11-23T14:31:00Z') };
    const first = dueMarketEvents([XNYS()], window);
    const sentKeys = new Set(first.due.map((e) => e.key));
    const second = dueMarketEvents([XNYS()], { ...window, alreadySent: sentKeys });
    expect(first.due.map((e) => e.key)).toEqual(['XNYS:2026-11-23:opened']);
    expect(second.due).toEqual([]);
    expect(second.dropped.map((d) => [d.event.key, d.reason])).toEqual([['XNYS:2026-11-23:opened', 'already_sent']]);
  });

  it('keys are per exchange, local trading day and kind, so the next day fires again', () => {
    const sent = simulate([XNYS()], at('2026-11-23T14:00:00Z'), at('2026-11-24T14:45:00Z'), MINUTE);
    const keys = sent.map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((k) => k.endsWith(':opened'))).toEqual(['XNYS:2026-11-23:opened', 'XNYS:2026-11-24:opened']);
  });

  it('handles several exchanges in one run, with sessions crossing midnight UTC (XASX, XNZE)', () => {
    const calendars = [bundledCalendar('XASX'), bundledCalendar('XNZE'), XNYS()];
    const sent = simulate(calendars, at('2026-11-23T20:00:00Z'), at('2026-11-23T23:05:00Z'), MINUTE);
    expect(summary(sent)).toEqual([
      ['XNYS', 'closing_soon', '2026-11-23T20:50:00.000Z'],
      ['XNZE', 'opening_soon', '2026-11-23T20:50:00.000Z'],
      ['XNYS', 'closed', '2026-11-23T21:00:00.000Z'],
      ['XNZE', 'opened', '2026-11-23T21:00:00.000Z'],
      ['XASX', 'opening_soon', '2026-11-23T22:50:00.000Z'],
      ['XASX', 'opened', '2026-11-23T23:00:00.000Z'],
    ]);
    expect(sent.filter((e) => e.exchangeId !== 'XNYS').every((e) => e.date === '2026-11-24')).toBe(true);
  });
});

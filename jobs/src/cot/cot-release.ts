import { DateTime } from 'luxon';

/**
 * When the weekly TFF report comes out. Positions are as of Tuesday; the CFTC publishes them on
 * Friday at 15:30 US Eastern (on a later day after a federal holiday). Pure: `now` is passed in.
 */
export const COT_RELEASE_ZONE = 'America/New_York';
export const COT_RELEASE = { weekday: 5, hour: 15, minute: 30 } as const;
/** Tuesday (report date) to Friday (release). */
const REPORT_TO_RELEASE_DAYS = 3;

function lastReleaseAtOrBefore(now: Date): DateTime {
  const local = DateTime.fromJSDate(now, { zone: COT_RELEASE_ZONE });
  const daysSinceFriday = (local.weekday - COT_RELEASE.weekday + 7) % 7;
  let release = local
    .minus({ days: daysSinceFriday })
    .set({ hour: COT_RELEASE.hour, minute: COT_RELEASE.minute, second: 0, millisecond: 0 });
  if (release > local) release = release.minus({ weeks: 1 });
  return release;
}

/** The report date (a Tuesday, YYYY-MM-DD) of the most recent scheduled release at or before `now`. */
export function expectedCotReportDate(now: Date): string {
  return lastReleaseAtOrBefore(now).minus({ days: REPORT_TO_RELEASE_DAYS }).toISODate()!;
}

/** The scheduled release instant of a report date (its Friday, 15:30 New York time). */
export function cotReleaseAt(reportDate: string): Date {
  const day = DateTime.fromISO(reportDate, { zone: COT_RELEASE_ZONE });
  if (!day.isValid) throw new RangeError(`not a date: ${reportDate}`);
  return day
    .plus({ days: REPORT_TO_RELEASE_DAYS })
    .set({ hour: COT_RELEASE.hour, minute: COT_RELEASE.minute, second: 0, millisecond: 0 })
    .toJSDate();
}

/** The next scheduled release strictly after `now`. */
export function nextCotRelease(now: Date): { reportDate: string; releaseAt: Date } {
  const next = lastReleaseAtOrBefore(now).plus({ weeks: 1 });
  return { reportDate: next.minus({ days: REPORT_TO_RELEASE_DAYS }).toISODate()!, releaseAt: next.toJSDate() };
}

export type CotPollDecision =
  | { action: 'skip'; expectedReportDate: string; latestStored: string }
  | { action: 'poll'; expectedReportDate: string; latestStored: string | null };

/**
 * Whether a scheduled poll should ask the CFTC at all: once the report due by now is stored,
 * every further poll of the window is a no-op that never touches the network.
 */
export function cotPollDecision(now: Date, latestStored: string | null): CotPollDecision {
  const expectedReportDate = expectedCotReportDate(now);
  if (latestStored !== null && latestStored >= expectedReportDate) return { action: 'skip', expectedReportDate, latestStored };
  return { action: 'poll', expectedReportDate, latestStored };
}

import { CronExpressionParser } from 'cron-parser';
import { fixedClock } from '../../src/runtime/clock';
import { COT_SCHEDULES } from '../../src/cot/cot.schedules';
import { cotPollDecision, cotReleaseAt, expectedCotReportDate, nextCotRelease } from '../../src/cot/cot-release';
import { SCHEDULES } from '../../src/domains';

describe('cot release time (America/New_York, Friday 15:30)', () => {
  it('expects last week\'s report until Friday 15:30 New York time, this week\'s from then (summer, UTC-4)', () => {
    const clock = fixedClock('2022-08-19T19:29:59Z'); // Friday 15:29:59 EDT
    expect(expectedCotReportDate(clock.now())).toBe('2022-08-09');
    clock.advance(1000); // 15:30:00 EDT
    expect(expectedCotReportDate(clock.now())).toBe('2022-08-16');
    clock.set('2022-08-22T14:00:00Z'); // the Monday after
    expect(expectedCotReportDate(clock.now())).toBe('2022-08-16');
  });

  it('follows the New York clock in winter (UTC-5) and across the March change', () => {
    expect(expectedCotReportDate(new Date('2022-01-07T20:29:00Z'))).toBe('2021-12-28');
    expect(expectedCotReportDate(new Date('2022-01-07T20:30:00Z'))).toBe('2022-01-04');
    expect(cotReleaseAt('2022-03-08').toISOString()).toBe('2022-03-11T20:30:00.000Z');
    expect(cotReleaseAt('2022-03-15').toISOString()).toBe('2022-03-18T19:30:00.000Z');
  });

  it('gives the next release after a moment', () => {
    expect(nextCotRelease(new Date('2022-08-20T12:00:00Z'))).toEqual({
      reportDate: '2022-08-23',
      releaseAt: new Date('2022-08-26T19:30:00Z'),
    });
    expect(nextCotRelease(new Date('2022-08-19T19:30:00Z')).reportDate).toBe('2022-08-23');
    expect(nextCotRelease(new Date('2022-08-19T19:29:00Z')).reportDate).toBe('2022-08-16');
  });

  it('skips a poll without asking the CFTC once the due report is stored, and polls while it is missing', () => {
    const friday = new Date('2022-08-19T19:40:00Z');
    expect(cotPollDecision(friday, '2022-08-09')).toEqual({ action: 'poll', expectedReportDate: '2022-08-16', latestStored: '2022-08-09' });
    expect(cotPollDecision(friday, null)).toMatchObject({ action: 'poll' });
    expect(cotPollDecision(friday, '2022-08-16')).toEqual({ action: 'skip', expectedReportDate: '2022-08-16', latestStored: '2022-08-16' });
  });

  it('schedules polls every 10 minutes from Friday 15:30 to 23:50 New York time, then hourly catch-up', () => {
    expect(SCHEDULES).toEqual(expect.arrayContaining(COT_SCHEDULES));
    const from = new Date('2022-08-19T19:00:00Z'); // Friday 15:00 EDT
    const runs: string[] = [];
    for (const s of COT_SCHEDULES) {
      if (!('pattern' in s.repeat)) throw new Error('cron expected');
      const cron = CronExpressionParser.parse(s.repeat.pattern, { currentDate: from, tz: s.repeat.tz });
      for (let i = 0; i < 60; i++) {
        const next = cron.next().toDate();
        if (next.getTime() > new Date('2022-08-23T04:00:00Z').getTime()) break;
        runs.push(next.toISOString());
      }
    }
    runs.sort();
    expect(runs.slice(0, 4)).toEqual(['2022-08-19T19:30:00.000Z', '2022-08-19T19:40:00.000Z', '2022-08-19T19:50:00.000Z', '2022-08-19T20:00:00.000Z']);
    // Friday 15:30-23:50 every 10 minutes: 3 + 8 x 6 = 51 polls; Monday 16:00-23:00 hourly: 8.
    expect(runs.filter((r) => r < '2022-08-20T04:00:00.000Z')).toHaveLength(51);
    expect(runs.filter((r) => r.startsWith('2022-08-22') || r.startsWith('2022-08-23'))).toEqual(
      Array.from({ length: 8 }, (_, h) => new Date(Date.UTC(2022, 7, 22, 20 + h)).toISOString()),
    );
    expect(runs.filter((r) => r.startsWith('2022-08-20T1') || r.startsWith('2022-08-21'))).toEqual([]);
  });
});

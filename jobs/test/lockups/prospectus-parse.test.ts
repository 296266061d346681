import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractLockupSection, LOCKUP_CLAUSE_MAX_CHARS, parseProspectus, wordsToNumber } from '../../src/lockups/prospectus.parse';
import { LOCKUPS_RECORDINGS_DIR, LOCKUPS_REPLAY_FILES, SIMULATED_OFFERINGS, simulatedProspectusHtml } from '../../src/lockups/lockups-replay';

// The two real prospectus passages (data/README.md): Airbnb's IPO 424B4 and Traws Pharma's follow-on 424B4.
// Every other case is one of those documents with values varied inside it, as each test says.
const ABNB = readFileSync(join(LOCKUPS_RECORDINGS_DIR, LOCKUPS_REPLAY_FILES.abnb), 'utf8');
const TRAW = readFileSync(join(LOCKUPS_RECORDINGS_DIR, LOCKUPS_REPLAY_FILES.traw), 'utf8');

function vary(text: string, from: string | RegExp, to: string): string {
  const next = text.replace(from, to);
  if (next === text) throw new Error(`the recording has no ${String(from)} to vary`);
  return next;
}

// Airbnb's restricted period, from "on the later of (i) ..." to "(such period, the “restricted period”)".
const ABNB_PERIOD = /on the later of \(i\) the\s+opening of trading[\s\S]*?(?=\(such period, the &#147;restricted period&#148;\))/;
// Airbnb's release table and the paragraph that introduces it.
const ABNB_RELEASE_TABLE = /<P[^>]*>As a result of the lock-up agreements[\s\S]*?<\/TABLE>/;

describe('parseProspectus on the real Airbnb IPO 424B4 (event-based staged release)', () => {
  const parsed = parseProspectus(ABNB);

  it('reads the cover: company, prospectus date, IPO price, shares offered (ours and the selling stockholders\u2019), the representative', () => {
    expect(parsed).toMatchObject({
      companyName: 'Airbnb, Inc.',
      prospectusDate: '2020-12-09',
      ipoPrice: '68.00',
      sharesOffered: String(50_000_000 + 1_323_531),
      underwriters: ['Morgan Stanley & Co. LLC'],
      offeringType: 'ipo',
    });
  });

  it('sums the classes outstanding after the offering from "Shares Eligible for Future Sale", without the option alternative', () => {
    // 98,682,548 Class A (not the 103,682,548 "if the underwriters exercise"), 489,565,703 Class B, 9,200,000 Class H.
    expect(parsed.sharesOutstandingAfter).toBe(String(98_682_548 + 489_565_703 + 9_200_000));
  });

  it('has no headline day count (the period ends on the later of an earnings release and the 121st day), and says why no date is computed', () => {
    expect(parsed.lockupDays).toBeNull();
    expect(parsed.reviewReason).toMatch(/tied to an event/);
  });

  it('reads who is bound', () => {
    expect(parsed.boundParties).toMatch(/^We and all of our directors, executive officers, and certain other record holders that together represent approximately 79\.5% of our outstanding Class\s?A common stock/);
  });

  it('reads the three release steps of the table, each with its event words and shares, none with a guessed day count', () => {
    expect(parsed.tranches).toHaveLength(3);
    expect(parsed.tranches.map((t) => t.days)).toEqual([null, null, null]);
    expect(parsed.tranches.map((t) => t.shares)).toEqual(['16800000', '27800000', null]);
    expect(parsed.tranches[0]).toMatchObject({ label: 'Day 1 (first trading day) (first release window)' });
    expect(parsed.tranches[0].event).toMatch(/^The first trading day on which our common stock is traded on Nasdaq/);
    expect(parsed.tranches[1].event).toMatch(/second trading day immediately following our public release of earnings for the first quarter/);
    expect(parsed.tranches[1].label).toBe('After an earnings release (second release window)');
    expect(parsed.tranches[2].event).toMatch(/^The later of \(i\) .* \(ii\) the 121st day after the date of this prospectus/);
    expect(parsed.tranches[2].label).toBe('Later of an earnings release and day 121');
  });

  it('reads the early-release trigger: 25% of the Employee Stockholders\u2019 shares if the close is at least 33% over the IPO price for 10 of 15 trading days', () => {
    expect(parsed.earlyRelease).toHaveLength(1);
    expect(parsed.earlyRelease[0]).toMatchObject({ priceMultiple: 1.33, days: 10, windowDays: 15, sharePct: 0.25 });
    expect(parsed.earlyRelease[0].description).toMatch(/at least 33% greater than the initial public offering price.*for any 10 trading days out of the 15-consecutive/);
  });

  it('computes the shares locked up from the stated 79.5% of the outstanding shares', () => {
    expect(parsed.sharesLockedUp).toBe(String(Math.round(0.795 * (98_682_548 + 489_565_703 + 9_200_000))));
  });

  it('quotes the "Lock-up and Market Standoff Agreements" subsection as plain text: C1 entities decoded, page break removed, the cut paragraph joined', () => {
    const clause = parsed.clause as string;
    expect(clause.startsWith('Lock-up and Market Standoff Agreements\nWe and all of our directors')).toBe(true);
    expect(clause.length).toBeLessThanOrEqual(LOCKUP_CLAUSE_MAX_CHARS + 2);
    // &#147; &#148; &#146; &#149; through the entities package's Windows-1252 table, not as C1 controls.
    expect(clause).toContain('(such period, the \u201crestricted period\u201d)');
    expect(clause).toContain('Investors\u2019 Rights Agreement');
    expect(clause).toContain('\u2022 for any 10 trading days');
    expect(clause).not.toMatch(/[\u0080-\u009f]|&#\d+;|&nbsp;/);
    // The 121<SUP>st</SUP> ordinal, and no page furniture (the "Table of Contents" link, page number 340).
    expect(clause).toContain('the 121st day after the date of this prospectus');
    expect(clause).not.toMatch(/Table of Contents|\b340\b/);
    // "(B) up to 25% ... held by" [page 340 ends] "Employee Stockholders, plus ..." is one paragraph again.
    expect(clause).toContain('for our Class A common stock held by Employee Stockholders, plus any first release window eligible shares');
    expect(clause).not.toMatch(/ {2}/);
    expect(extractLockupSection(ABNB)).toBe(clause);
  });
});

describe('parseProspectus on the real Traws Pharma 424B4 (follow-on: 90 days, and the issuer\u2019s 30 trading days)', () => {
  const parsed = parseProspectus(TRAW);

  it('reads 90 days for the officers, directors and certain stockholders as one release step', () => {
    expect(parsed.lockupDays).toBe(90);
    expect(parsed.boundParties).toBe('Our officers and directors and certain of our stockholders');
    expect(parsed.tranches).toEqual([{ days: 90, event: null, shares: null, sharePct: null, label: '90 days' }]);
    expect(parsed.earlyRelease).toEqual([]);
  });

  it('keeps the issuer\u2019s own 30-trading-day lock-up apart, with the event it runs from', () => {
    expect(parsed.issuerLockup).toMatchObject({ days: null, tradingDays: 30 });
    expect(parsed.issuerLockup?.event).toMatch(/^the later of \(i\) the Resale Effective Date .* \(ii\) obtaining the Requisite Stockholder Approval/);
  });

  it('is not marked an IPO, and asks for review: the excerpt has no prospectus date, so no expiry is computed', () => {
    expect(parsed.offeringType).toBeNull();
    expect(parsed.prospectusDate).toBeNull();
    expect(parsed.reviewReason).toBe('no prospectus date was found: the expiry cannot be computed');
  });

  it('quotes the passage with the no-break space made plain', () => {
    expect(parsed.clause).toMatch(/^Lock-up Agreements\nOur officers and directors .* lock-up period of 90 days following the date of this prospectus\./);
    expect(parsed.clause).toMatch(/waive the terms of any of these lock-up agreements\.$/);
  });

  it('reads the same from the full submission text that EDGAR serves (the 424B4 document inside it)', () => {
    const submission = `<SEC-DOCUMENT>0001104659-24-132924.txt : 20241231\n<SEC-HEADER>ACCESSION NUMBER: 0001104659-24-132924\nCONFORMED SUBMISSION TYPE: 424B4\n</SEC-HEADER>\n<DOCUMENT>\n<TYPE>424B4\n<SEQUENCE>1\n<TEXT>\n<HTML><BODY>${TRAW}</BODY></HTML>\n</TEXT>\n</DOCUMENT>\n<DOCUMENT>\n<TYPE>EX-5.1\n<TEXT>\nLock-up of 365 days\n</TEXT>\n</DOCUMENT>\n</SEC-DOCUMENT>\n`;
    expect(parseProspectus(submission)).toMatchObject({ lockupDays: 90, tranches: [{ days: 90 }] });
  });
});

describe('parseProspectus on varied real documents', () => {
  it('Traws with 180 days in place of 90', () => {
    const parsed = parseProspectus(vary(TRAW, '90&#160;days', '180&#160;days'));
    expect(parsed).toMatchObject({ lockupDays: 180, tranches: [{ days: 180, label: '180 days' }] });
  });

  it('Traws with "one hundred eighty (180) days" and with "ninety days" (numbers in words)', () => {
    expect(parseProspectus(vary(TRAW, '90&#160;days', 'one hundred eighty (180)&#160;days')).lockupDays).toBe(180);
    expect(parseProspectus(vary(TRAW, '90&#160;days', 'ninety&#160;days')).lockupDays).toBe(90);
    expect(wordsToNumber('one hundred and eighty')).toBe(180);
    expect(wordsToNumber('three hundred sixty-five')).toBe(365);
    expect(wordsToNumber('lock-up')).toBeNull();
  });

  it('Traws with a period the parser does not read: no days, no steps, and a review reason (never a guessed date)', () => {
    const parsed = parseProspectus(vary(TRAW, 'a lock-up period of 90&#160;days following the date of this prospectus', 'a lock-up period ending when the placement agent so decides'));
    expect(parsed).toMatchObject({ lockupDays: null, tranches: [] });
    expect(parsed.reviewReason).toMatch(/lock-up period wording was not recognised/);
  });

  it('Traws with staged releases written in the clause (wording inserted into the real passage): one step per percentage', () => {
    const parsed = parseProspectus(
      vary(
        TRAW,
        'following the date of this prospectus. This means',
        'following the date of this prospectus, except that (i) 25% of such shares will be released on the 30th day after the date of this prospectus, (ii) 25% of such shares will be released 60 days after the date of this prospectus and (iii) the remaining shares will be released 90 days after the date of this prospectus. This means',
      ),
    );
    expect(parsed.lockupDays).toBe(90);
    expect(parsed.tranches.map((t) => [t.days, t.sharePct])).toEqual([
      [30, 0.25],
      [60, 0.25],
      [90, null],
    ]);
  });

  it('Airbnb with "one hundred eighty (180) days after the date of this prospectus" and no release table: one dated step, nothing to review', () => {
    const html = vary(vary(ABNB, ABNB_PERIOD, 'one hundred eighty (180) days after the date of this prospectus '), ABNB_RELEASE_TABLE, '');
    const parsed = parseProspectus(html);
    expect(parsed).toMatchObject({ prospectusDate: '2020-12-09', lockupDays: 180, tranches: [{ days: 180, event: null, label: '180 days' }], reviewReason: null });
    // The Employee Stockholders' "no sales ... until at least 60 days after the date of this prospectus" is a floor, not the period.
    expect(parsed.tranches).toHaveLength(1);
    expect(parsed.earlyRelease[0]).toMatchObject({ priceMultiple: 1.33, days: 10, windowDays: 15 });
  });

  it('Airbnb with the release table\u2019s steps as day counts (the replay\u2019s staged variant): 30, 90 and 180 days with their shares', () => {
    const offering = SIMULATED_OFFERINGS(new Date('2026-03-02T15:00:00Z')).find((o) => o.staged && o.lockupDays === 180);
    if (!offering) throw new Error('no staged 180-day offering');
    const parsed = parseProspectus(simulatedProspectusHtml(ABNB, offering));
    expect(parsed).toMatchObject({ companyName: offering.companyName, prospectusDate: offering.prospectusDate, ipoPrice: offering.ipoPrice, lockupDays: 180, reviewReason: null });
    expect(parsed.tranches.map((t) => t.days)).toEqual([30, 90, 180]);
    expect(parsed.tranches[0].shares).toBe(String(Math.round(Number(offering.sharesOffered) / 3 / 1e5) * 1e5));
    expect(parsed.tranches[2].shares).toBeNull();
  });

  it('Airbnb without its lock-up passage and release table: no lock-up, a review reason', () => {
    const html = vary(ABNB.slice(0, ABNB.indexOf('<!-- fragment 6')), ABNB_RELEASE_TABLE, '');
    const parsed = parseProspectus(html);
    expect(parsed).toMatchObject({ companyName: 'Airbnb, Inc.', lockupDays: null, tranches: [], clause: null, reviewReason: 'no lock-up section was found' });
    expect(extractLockupSection(html)).toBeNull();
  });
});

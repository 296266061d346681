import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NewsParseError, parseNewsFeed, plainText } from '../../src/news/news-feed.parse';

const FIXTURES = join(__dirname, '../../src/news/data');
const read = (file: string) => readFileSync(join(FIXTURES, file), file.includes('edgar') ? 'latin1' : 'utf8');

describe('parseNewsFeed on the recorded feeds', () => {
  it.each([
    ['coindesk-rss-2025-12-13.xml', 25],
    ['cointelegraph-rss-2025-12-12.xml', 30],
    ['decrypt-feed-2025-12-12.xml', 58],
  ])('reads every item of %s (%i)', (file, count) => {
    const feed = parseNewsFeed(read(file));
    expect(feed.format).toBe('rss');
    expect(feed.items).toHaveLength(count);
    expect(feed.skipped).toBe(0);
    // Every item has its own key, an absolute link and a date.
    expect(new Set(feed.items.map((i) => i.dedupeKey)).size).toBe(count);
    for (const item of feed.items) {
      expect(item.link).toMatch(/^https:\/\//);
      expect(item.publishedAt?.getTime()).toEqual(expect.any(Number));
      expect(item.title).not.toMatch(/<|&#|&amp;/);
    }
  });

  it('takes the GUID as the key, the link as given, the date as UTC and plain-text copy', () => {
    const first = parseNewsFeed(read('cointelegraph-rss-2025-12-12.xml')).items[0];
    expect(first).toMatchObject({
      dedupeKey: 'https://cointelegraph.com/news/figure-technology-solana-onchain-equity-second-ipo',
      title: 'Figure Technology files ‘second IPO’ to bring native equity issuance to Solana',
      link: 'https://cointelegraph.com/news/figure-technology-solana-onchain-equity-second-ipo?utm_source=rss_feed&utm_medium=rss&utm_campaign=rss_partner_inbound',
      formType: null,
      cik: null,
    });
    expect(first.publishedAt?.toISOString()).toBe('2025-12-12T16:57:28.000Z');
  });

  it("decodes Decrypt's twice-escaped entities", () => {
    const first = parseNewsFeed(read('decrypt-feed-2025-12-12.xml')).items[0];
    expect(first.title).toBe("Vanguard Exec Calls Bitcoin a 'Digital Labubu', Even as Firm Offers Crypto ETF Trading");
    expect(first.dedupeKey).toBe('https://decrypt.co/?p=352201');
  });
});

describe('parseNewsFeed on the recorded EDGAR current filings', () => {
  it('reads the 100 entries of each page, with form type, CIK and company', () => {
    const first = parseNewsFeed(read('edgar-getcurrent-all-forms-start0-2026-01-12.atom.xml'));
    const later = parseNewsFeed(read('edgar-getcurrent-all-forms-start700-2026-01-12.atom.xml'));
    expect(first.format).toBe('atom');
    expect(first.items).toHaveLength(100);
    expect(later.items).toHaveLength(100);
    expect(first.items.filter((i) => i.formType === '8-K')).toHaveLength(1);
    expect(later.items.filter((i) => i.formType === '8-K' || i.formType === '8-K/A')).toHaveLength(63);
    expect(later.items[0]).toMatchObject({
      dedupeKey: '0001683168-26-000199/0000736012',
      title: '4 - INTRUSION INC (0000736012) (Issuer)',
      link: 'https://www.sec.gov/Archives/edgar/data/736012/000168316826000199/0001683168-26-000199-index.htm',
      summary: 'Filed: 2026-01-12 AccNo: 0001683168-26-000199 Size: 5 KB',
      formType: '4',
      cik: '0000736012',
      company: 'INTRUSION INC',
    });
    expect(later.items[0].publishedAt?.toISOString()).toBe('2026-01-12T12:57:35.000Z');
  });

  it('keeps one row per party of a filing (the accession and the CIK make the key)', () => {
    const keys = parseNewsFeed(read('edgar-getcurrent-all-forms-start700-2026-01-12.atom.xml')).items.map((i) => i.dedupeKey);
    expect(new Set(keys).size).toBe(100);
  });
});

describe('parseNewsFeed on bad input', () => {
  it('refuses an HTML page', () => {
    expect(() => parseNewsFeed('<!DOCTYPE html><html><body>Just a moment...</body></html>')).toThrow(NewsParseError);
    expect(() => parseNewsFeed('<html><head></head><body></body></html>')).toThrow(/HTML/);
  });

  it('refuses text that is not XML, and broken XML', () => {
    expect(() => parseNewsFeed('{"items": []}')).toThrow(/not XML/);
    const cut = read('coindesk-rss-2025-12-13.xml').slice(0, 5000);
    expect(() => parseNewsFeed(cut)).toThrow(NewsParseError);
  });

  it('skips and counts a malformed item, keeping the others', () => {
    const xml = read('cointelegraph-rss-2025-12-12.xml');
    // The first item loses its title; the second its date becomes unreadable.
    const broken = xml
      .replace('<title>Figure Technology files ‘second IPO’ to bring native equity issuance to Solana</title>', '')
      .replace(/<pubDate>[^<]+<\/pubDate>/.exec(xml.slice(xml.indexOf('<item>', xml.indexOf('<item>') + 1)))![0], '<pubDate>sometime soon</pubDate>');
    const feed = parseNewsFeed(broken);
    expect(feed.skipped).toBe(2);
    expect(feed.items).toHaveLength(28);
  });
});

describe('plainText', () => {
  it('drops tags, decodes entities and squeezes spaces', () => {
    expect(plainText('<p>Bitcoin&#039;s  <b>rally</b> &amp;hellip;</p>')).toBe("Bitcoin's rally &hellip;");
  });
});

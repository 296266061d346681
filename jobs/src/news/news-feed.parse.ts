import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** A feed that cannot be read at all (HTML instead of a feed, broken XML, neither RSS nor Atom): retried later, counted on source health. */
export class NewsParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NewsParseError';
  }
}

/** One item as the feed gave it, cleaned: plain-text title and summary, an absolute link, a UTC instant. */
export interface ParsedNewsItem {
  /** The GUID (RSS `<guid>`, Atom `<id>`), else the link: the item's identity within its source. */
  dedupeKey: string;
  title: string;
  link: string;
  summary: string | null;
  /** null when the item carries no date (the poll then stores the time it was fetched). */
  publishedAt: Date | null;
  /** Filings (the SEC's current-filings feed) only. */
  formType: string | null;
  cik: string | null;
  company: string | null;
}

export interface ParsedFeed {
  format: 'rss' | 'atom';
  title: string | null;
  items: ParsedNewsItem[];
  /** Items left out because they were malformed (no title, no link or GUID, an unreadable date). */
  skipped: number;
}

const TEXT = '#text';
const LIMITS = { title: 1000, link: 2000, dedupeKey: 500, summary: 2000 };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: TEXT,
  // Every value stays a string: a title like "2025" must not become a number.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: true,
  isArray: (name) => ['item', 'entry', 'link', 'category'].includes(name),
});

type Node = Record<string, unknown>;

/** The text of an element that may be a plain string or an object with attributes. */
function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === 'object') return text((value as Node)[TEXT]);
  return null;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', mdash: '—', ndash: '–', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“' };

/** Feeds often escape HTML twice (`&amp;#039;`): decode what the XML layer left, drop tags, squeeze spaces. */
export function plainText(value: string): string {
  return value
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function cleaned(value: unknown, max: number): string | null {
  const raw = text(value);
  if (raw === null) return null;
  const out = plainText(raw);
  return out ? out.slice(0, max) : null;
}

/** An absolute http(s) URL, or null. */
function httpUrl(value: string | null, base?: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString().slice(0, LIMITS.link) : null;
  } catch {
    return null;
  }
}

/** A date, null when absent; throws on one that is present but unreadable (the item is malformed). */
function date(value: unknown): Date | null {
  const raw = text(value);
  if (raw === null || raw.trim() === '') return null;
  const at = new Date(raw.trim());
  if (Number.isNaN(at.getTime())) throw new Error(`unreadable date "${raw.slice(0, 40)}"`);
  return at;
}

function asArray(value: unknown): Node[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is Node => typeof v === 'object' && v !== null);
}

function rssItem(item: Node): ParsedNewsItem {
  const title = cleaned(item.title, LIMITS.title);
  const link = httpUrl(text(item.link));
  const guid = text(item.guid)?.trim() || null;
  if (!title) throw new Error('no title');
  if (!link && !guid) throw new Error('no link and no guid');
  const guidLink = httpUrl(guid);
  return {
    dedupeKey: (guid ?? link ?? '').slice(0, LIMITS.dedupeKey),
    title,
    link: (link ?? guidLink) as string,
    summary: cleaned(item.description ?? item['content:encoded'], LIMITS.summary),
    publishedAt: date(item.pubDate ?? item['dc:date']),
    formType: null,
    cik: null,
    company: null,
  };
}

// "8-K - ORTHOPEDIATRICS CORP (0001425450) (Filer)": form, company, CIK, role.
const EDGAR_TITLE = /^(.+?) - (.+) \((\d{10})\) \(([^)]+)\)$/;
const ACCESSION = /accession-number=([0-9-]+)/;

function atomLink(entry: Node, base: string | undefined): string | null {
  const links = asArray(entry.link);
  const alternate = links.find((l) => (l['@_rel'] ?? 'alternate') === 'alternate') ?? links[0];
  return httpUrl(alternate ? (text(alternate['@_href']) ?? null) : null, base);
}

function atomEntry(entry: Node, base: string | undefined): ParsedNewsItem {
  const title = cleaned(entry.title, LIMITS.title);
  const link = atomLink(entry, base);
  const id = text(entry.id)?.trim() || null;
  if (!title) throw new Error('no title');
  if (!link) throw new Error('no link');
  const publishedAt = date(entry.published ?? entry.updated);
  const filing = EDGAR_TITLE.exec(title);
  if (filing) {
    // An EDGAR filing is listed once per party (issuer, reporting owner, filer), all under one
    // accession number: the CIK is part of the key so each party's row is kept.
    const category = asArray(entry.category).find((c) => c['@_label'] === 'form type');
    const accession = id ? (ACCESSION.exec(id)?.[1] ?? id) : link;
    return {
      dedupeKey: `${accession}/${filing[3]}`.slice(0, LIMITS.dedupeKey),
      title,
      link,
      summary: cleaned(entry.summary ?? entry.content, LIMITS.summary),
      publishedAt,
      formType: (text(category?.['@_term']) ?? filing[1]).slice(0, 30),
      cik: filing[3],
      company: filing[2].slice(0, 200),
    };
  }
  return {
    dedupeKey: (id ?? link).slice(0, LIMITS.dedupeKey),
    title,
    link,
    summary: cleaned(entry.summary ?? entry.content, LIMITS.summary),
    publishedAt,
    formType: null,
    cik: null,
    company: null,
  };
}

/**
 * Parses an RSS 2.0 or Atom document (news feeds, the SEC's current filings). Throws
 * NewsParseError when the document is HTML, not XML, or neither format; a malformed item is
 * skipped and counted. `baseUrl` resolves relative links (EDGAR's feed links are absolute).
 */
export function parseNewsFeed(body: string, options: { baseUrl?: string } = {}): ParsedFeed {
  const head = body.slice(0, 512).trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) throw new NewsParseError('the answer is an HTML page, not a feed');
  if (!head.startsWith('<')) throw new NewsParseError('the answer is not XML');
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new NewsParseError(`the feed is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  let document: Node;
  try {
    document = parser.parse(body) as Node;
  } catch (error) {
    throw new NewsParseError(`the feed cannot be parsed: ${(error as Error).message}`);
  }
  const items: ParsedNewsItem[] = [];
  let skipped = 0;
  const collect = (nodes: Node[], read: (node: Node) => ParsedNewsItem) => {
    for (const node of nodes) {
      try {
        items.push(read(node));
      } catch {
        skipped += 1;
      }
    }
  };
  const rss = document.rss as Node | undefined;
  if (rss && typeof rss === 'object') {
    const channel = (asArray(rss.channel)[0] ?? {}) as Node;
    collect(asArray(channel.item), rssItem);
    return { format: 'rss', title: cleaned(channel.title, 200), items, skipped };
  }
  const feed = document.feed as Node | undefined;
  if (feed && typeof feed === 'object') {
    collect(asArray(feed.entry), (entry) => atomEntry(entry, options.baseUrl));
    return { format: 'atom', title: cleaned(feed.title, 200), items, skipped };
  }
  if ('html' in document) throw new NewsParseError('the answer is an HTML page, not a feed');
  throw new NewsParseError('the document is neither RSS nor Atom');
}

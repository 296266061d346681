import { Parser } from 'htmlparser2';

// The lock-up of a final prospectus (424B4) or its registration statement (S-1), read from the
// filing's HTML. Pure: no I/O. Real samples in data/ (data/README.md names their origins):
// - Airbnb's IPO 424B4 (dated 2020-12-09): cover facts, "Shares Eligible for Future Sale" with a
//   release table ("Earliest Date Available for Sale in the Public Market" | "Number of Shares"),
//   and "Lock-up and Market Standoff Agreements": an event-based, staged release (first trading day,
//   an earnings release gated on the close being at least 33% above the IPO price for 10 of 15
//   trading days, then the later of a second earnings release and the 121st day);
// - Traws Pharma's 424B4 (a follow-on, not an IPO): "Lock-up Agreements", 90 days for officers,
//   directors and certain stockholders, and 30 trading days for the issuer after a defined event.
// EDGAR HTML as found there: Windows-1252 numeric entities (&#147; &#148; &#146; &#151; &#149;),
// decoded by htmlparser2 through the `entities` package's C1 replacement table; &nbsp; inside
// numbers-with-units; upper-case tags; hard line breaks mid-sentence; list items laid out as
// one-row tables ("(1)" | text); page breaks ("Table of Contents" link, grey page number) cutting
// paragraphs in two; <SUP>st</SUP> ordinals.
//
// Never a guessed date: a release tied to an event (an earnings release, the first trading day)
// has `days: null` and its words in `event`, and `reviewReason` says what was not read.

export interface ParsedLockupTranche {
  /** Days after the prospectus date (or after the offering date) when this tranche may be sold; null when event-based only. */
  days: number | null;
  /** Event wording when the release is tied to an event (e.g. "the second trading day after our earnings release for the quarter ending ..."). */
  event: string | null;
  /** Shares released in this tranche (as digits, no commas) when stated, else null. */
  shares: string | null;
  /** Share (0..1) of the locked shares when stated as a percentage, else null. */
  sharePct: number | null;
  label: string; // e.g. "Day 1 (first trading day)", "180 days"
}

export interface ParsedEarlyRelease {
  description: string;
  priceMultiple: number | null;
  days: number | null;
  windowDays: number | null;
  sharePct: number | null;
}

/** A lock-up the issuer itself accepted (no new shares for a while): not shares unlocking, kept for the record. */
export interface ParsedIssuerLockup {
  /** Calendar days after the prospectus date, when so stated. */
  days: number | null;
  /** Trading days, when so stated (counted from `event` when there is one). */
  tradingDays: number | null;
  /** What the period runs from, when it is not the prospectus date. */
  event: string | null;
  /** The sentence. */
  text: string;
}

export interface ParsedProspectus {
  companyName: string | null;
  /** Prospectus date YYYY-MM-DD ("The date of this prospectus is December 9, 2020"). */
  prospectusDate: string | null;
  ipoPrice: string | null; // "68.00"
  sharesOffered: string | null; // digits
  underwriters: string[]; // bookrunner names as written
  sharesOutstandingAfter: string | null; // from "Shares Eligible for Future Sale" when stated (sum of classes, digits)
  /** The lock-up: */
  lockupDays: number | null; // the headline period (180, 90 ...), null if only event-based
  boundParties: string | null; // who is bound, quoted words
  tranches: ParsedLockupTranche[]; // one per release step (at least one when lockupDays is known)
  earlyRelease: ParsedEarlyRelease[];
  sharesLockedUp: string | null; // digits, when stated (or computable from a stated % of outstanding)
  /** The clause quoted, plain text (entities decoded, whitespace collapsed), at most ~6,000 chars. */
  clause: string | null;
  /** Why the lock-up was not fully read (null when it was): the event is then created "needs_review". */
  reviewReason: string | null;
  // Additions beyond the contract (read when present, never required):
  /** 'ipo' when the cover says "initial public offering", else null (a follow-on, or not stated in the part read). */
  offeringType: 'ipo' | null;
  /** The issuer's own lock-up (Traws: 30 trading days after a defined event), when stated. */
  issuerLockup: ParsedIssuerLockup | null;
}

/** The longest clause kept (characters). */
export const LOCKUP_CLAUSE_MAX_CHARS = 6000;

// ---------------------------------------------------------------------------------------------
// HTML -> blocks of plain text.

interface Block {
  text: string;
  /** The text with typographic quotes, dashes and no-break spaces made plain (same length). */
  plain: string;
  /** Most of the text is bold (a heading when short). */
  bold: boolean;
  /** Part of a table (a row): its id, and its non-empty cells. */
  table: number | null;
  cells: string[] | null;
}

const BLOCK_TAGS = new Set([
  'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'ul', 'ol', 'center', 'blockquote', 'dl', 'dt', 'dd',
  'section', 'article', 'body', 'html', 'pre', 'table', 'tbody', 'thead', 'tfoot', 'hr', 'document', 'text', 'page', 'title',
]);
const SKIP_TAGS = new Set(['script', 'style', 'head']);
const C1_QUOTES: Record<string, string> = { '\u201c': '"', '\u201d': '"', '\u2018': "'", '\u2019': "'", '\u2014': '-', '\u2013': '-', '\u00a0': ' ' };

/** Collapses whitespace (and no-break spaces) to single spaces. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function boldStyle(style: string | undefined): boolean | null {
  if (!style) return null;
  const weight = /font-weight\s*:\s*([a-z0-9]+)/i.exec(style)?.[1]?.toLowerCase();
  if (!weight) return null;
  return weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
}

const PAGE_FURNITURE = /^(?:table of contents|\d{1,4}|[ivxlc]{1,6}|[A-Z]-\d{1,3})$/i;
const ENDS_SENTENCE = /[.:;!?"')\u201d\u2019]$/;

/**
 * The document as blocks: a paragraph, a heading, or a table row (its cells kept apart). Page
 * furniture (the "Table of Contents" link, page numbers) is dropped, and a paragraph cut by a page
 * break is joined again.
 */
function toBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  let text = '';
  let boldChars = 0;
  let allChars = 0;
  let skip = 0;
  const boldStack: boolean[] = [false];
  const tableStack: number[] = [];
  let tableCount = 0;
  let cells: string[] | null = null;
  let cell: string | null = null;
  let rowBold = 0;
  let rowAll = 0;
  let pageBreak = false;

  const push = (raw: string, bold: boolean, table: number | null, rowCells: string[] | null) => {
    const value = squash(raw);
    if (!value) return;
    if (PAGE_FURNITURE.test(value) && !rowCells) {
      pageBreak = true;
      return;
    }
    const last = blocks[blocks.length - 1];
    // A paragraph cut by a page break: the next piece continues the sentence.
    if (pageBreak && last && !last.bold && !ENDS_SENTENCE.test(last.text) && !bold) {
      last.text = `${last.text} ${value}`;
      last.plain = plain(last.text);
      if (last.cells && rowCells) last.cells.push(...rowCells);
      pageBreak = false;
      return;
    }
    pageBreak = false;
    blocks.push({ text: value, plain: plain(value), bold, table, cells: rowCells });
  };
  const flush = () => {
    if (text) push(text, allChars > 0 && boldChars / allChars >= 0.8, null, null);
    text = '';
    boldChars = 0;
    allChars = 0;
  };
  const flushRow = () => {
    if (cells) {
      const kept = cells.filter((c) => c !== '');
      if (kept.length) push(kept.join(' '), rowAll > 0 && rowBold / rowAll >= 0.8, tableStack[tableStack.length - 1] ?? null, kept);
    }
    cells = null;
    cell = null;
    rowBold = 0;
    rowAll = 0;
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (SKIP_TAGS.has(name)) {
          skip += 1;
          return;
        }
        const style = attribs.style;
        if (style && /page-break-(?:before|after)\s*:\s*always/i.test(style)) pageBreak = true;
        const fromStyle = boldStyle(style);
        boldStack.push(name === 'b' || name === 'strong' || (fromStyle ?? boldStack[boldStack.length - 1]));
        if (name === 'table') {
          flush();
          tableCount += 1;
          tableStack.push(tableCount);
        } else if (name === 'tr') {
          flush();
          flushRow();
          cells = [];
        } else if (name === 'td' || name === 'th') {
          if (!cells) {
            flush();
            cells = [];
          }
          cell = '';
        } else if (name === 'br') {
          if (cell !== null) cell += ' ';
          else text += ' ';
        } else if (BLOCK_TAGS.has(name)) {
          if (cell !== null) cell += ' ';
          else flush();
          if (name === 'hr') pageBreak = true;
        }
      },
      ontext(data) {
        if (skip) return;
        const visible = data.trim().length;
        const bold = boldStack[boldStack.length - 1];
        if (cell !== null) {
          cell += data;
          rowAll += visible;
          if (bold) rowBold += visible;
        } else {
          text += data;
          allChars += visible;
          if (bold) boldChars += visible;
        }
      },
      onclosetag(name) {
        if (SKIP_TAGS.has(name)) {
          skip = Math.max(0, skip - 1);
          return;
        }
        if (boldStack.length > 1) boldStack.pop();
        if (name === 'td' || name === 'th') {
          if (cells && cell !== null) cells.push(squash(cell));
          cell = null;
        } else if (name === 'tr') {
          flushRow();
        } else if (name === 'table') {
          flushRow();
          flush();
          tableStack.pop();
        } else if (BLOCK_TAGS.has(name) && cell === null) {
          flush();
        } else if (BLOCK_TAGS.has(name)) {
          cell += ' ';
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  flushRow();
  flush();
  return blocks;
}

const PLAIN_NEEDED = /[\u201c\u201d\u2018\u2019\u2014\u2013\u00a0]/;

/** The same text with typographic quotes, dashes and no-break spaces made plain (same length: indexes carry over). */
function plain(text: string): string {
  if (!PLAIN_NEEDED.test(text)) return text;
  return text.replace(/[\u201c\u201d\u2018\u2019\u2014\u2013\u00a0]/g, (c) => C1_QUOTES[c] ?? c);
}

/** A full submission (.txt) holds several documents: keep the prospectus (the first 424B/S-1 document, else the first). */
function prospectusDocument(text: string): string {
  if (!/<DOCUMENT>/i.test(text.slice(0, 20000))) return text;
  const documents = text.split(/<DOCUMENT>/i).slice(1);
  const wanted = documents.find((d) => /^\s*<TYPE>\s*(?:424B\d|S-1|F-1)/i.test(d)) ?? documents[0];
  return wanted ?? text;
}

// ---------------------------------------------------------------------------------------------
// The lock-up passage.

const LOCKUP_HEADING = /\block[- ]?ups?\b|\bmarket stand-?off\b/i;
const OTHER_HEADING = /^(?:rule 144|rule 701|registration rights|equity incentive plans?|form s-8|underwriting|legal matters|experts|stabilization|discretionary accounts|electronic distribution|other relationships|selling restrictions|indemnification|listing|price stabilization)/i;

function isHeading(block: Block): boolean {
  if (block.table !== null) return false;
  if (block.text.length > 160) return false;
  if (block.bold) return true;
  // Not bold: a short title-like line without a closing full stop.
  return block.text.length <= 80 && !/[.;:,]$/.test(block.text) && /^[A-Z]/.test(block.text) && (LOCKUP_HEADING.test(block.text) || OTHER_HEADING.test(block.text) || /^shares eligible for future sale$/i.test(block.text));
}

const DAYS_HINT = /\b\d{1,3}(?:st|nd|rd|th)?[- ](?:calendar |trading )?days?\b|\(\d{1,3}\) days\b|\brestricted period\b|\block-up period\b/i;

interface Passage {
  start: number;
  end: number; // exclusive
  text: string;
}

function findPassage(blocks: Block[]): Passage | null {
  let best: { start: number; end: number; score: number } | null = null;
  for (let i = 0; i < blocks.length; i += 1) {
    const block = blocks[i];
    if (!isHeading(block) || !LOCKUP_HEADING.test(block.text) || /risk/i.test(block.text)) continue;
    let end = i + 1;
    let chars = 0;
    while (end < blocks.length && !isHeading(blocks[end]) && chars < LOCKUP_CLAUSE_MAX_CHARS * 2) {
      chars += blocks[end].text.length;
      end += 1;
    }
    if (end === i + 1) continue;
    const body = blocks.slice(i + 1, end).map((b) => b.plain).join(' ');
    const score = (DAYS_HINT.test(body) ? 100_000 : 0) + (/\bagree/i.test(body) ? 10_000 : 0) + Math.min(body.length, LOCKUP_CLAUSE_MAX_CHARS);
    if (!best || score > best.score) best = { start: i, end, score };
  }
  if (!best) {
    // No heading: the first paragraph about a lock-up that states a period.
    const at = blocks.findIndex((b) => /lock[- ]?up/i.test(b.plain) && DAYS_HINT.test(b.plain) && b.text.length > 120);
    if (at < 0) return null;
    best = { start: at, end: at + 1, score: 0 };
  }
  const text = blocks
    .slice(best.start, best.end)
    .map((b) => b.text)
    .join('\n');
  return { start: best.start, end: best.end, text };
}

function clip(text: string, max = LOCKUP_CLAUSE_MAX_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const stop = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'));
  return `${stop > max * 0.6 ? cut.slice(0, stop + 1) : cut.trimEnd()} \u2026`;
}

/** The lock-up passage of a prospectus as plain text (its heading, then its paragraphs, one a line), or null when there is none. */
export function extractLockupSection(html: string): string | null {
  const passage = findPassage(toBlocks(prospectusDocument(html)));
  return passage ? clip(passage.text) : null;
}

// ---------------------------------------------------------------------------------------------
// Numbers, dates, periods.

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

/** "one hundred eighty", "ninety", "three hundred sixty-five" -> number; null when not a number in words. */
export function wordsToNumber(words: string): number | null {
  const parts = words.toLowerCase().replace(/-/g, ' ').split(/\s+/).filter((w) => w && w !== 'and');
  if (!parts.length) return null;
  let total = 0;
  let current = 0;
  for (const part of parts) {
    if (part in SMALL) current += SMALL[part];
    else if (part in TENS) current += TENS[part];
    else if (part === 'hundred') current = (current || 1) * 100;
    else return null;
  }
  total += current;
  return total;
}

function isoDate(month: string, day: string, year: string): string | null {
  const m = MONTHS.indexOf(month.toLowerCase());
  const d = Number(day);
  if (m < 0 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(Number(year), m, d));
  if (date.getUTCMonth() !== m) return null;
  return `${year}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const DATE = '(January|February|March|April|May|June|July|August|September|October|November|December)\\s+(\\d{1,2}),\\s+(\\d{4})';

function digits(value: string): string {
  return value.replace(/[^\d]/g, '').replace(/^0+(?=\d)/, '');
}

/** "16.8 million" -> "16800000"; "1,323,531" -> "1323531". */
function shareCount(number: string, scale: string | undefined): string | null {
  const clean = number.replace(/,/g, '');
  if (!/^\d+(?:\.\d+)?$/.test(clean)) return null;
  if (!scale) return clean.includes('.') ? null : digits(clean);
  const factor = scale.toLowerCase() === 'billion' ? 1e9 : 1e6;
  const [whole, fraction = ''] = clean.split('.');
  const zeros = String(factor).length - 1;
  if (fraction.length > zeros) return null;
  return digits(`${whole}${fraction.padEnd(zeros, '0')}`);
}

// A period measured from the prospectus or the offering: "90 days following the date of this prospectus",
// "one hundred eighty (180) days after the date of this prospectus", "the 181st day after the date of
// this prospectus", "180 days after the closing of this offering".
const FROM = String.raw`(?:after|following|from|of|subsequent to)\s+(?:the\s+(?:date\s+of\s+)?)?(?:this|the|our)\s+(?:final\s+)?(?:prospectus|offering|initial public offering)|(?:after|following|from)\s+the\s+(?:date\s+of\s+the\s+)?(?:closing|completion|pricing|consummation)\s+(?:date\s+)?of\s+(?:this|the|our)\s+(?:initial public\s+)?offering|(?:after|following|from)\s+the\s+date\s+of\s+the\s+underwriting\s+agreement`;
const NUMBER_WORDS = String.raw`(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|and)[\s-]+)+`;
const PERIOD = new RegExp(
  String.raw`(?:(${NUMBER_WORDS})\(\s*(\d{1,3})\s*\)|(\d{1,3})(st|nd|rd|th)?|(${NUMBER_WORDS}))[\s-]*(calendar\s+|trading\s+)?(days?)\s+(?:period\s+)?(?:${FROM})`,
  'gi',
);

interface PeriodMatch {
  days: number;
  trading: boolean;
  ordinal: boolean;
  index: number;
  length: number;
}

function periods(text: string): PeriodMatch[] {
  const found: PeriodMatch[] = [];
  PERIOD.lastIndex = 0;
  for (let m = PERIOD.exec(text); m; m = PERIOD.exec(text)) {
    const value = m[2] ?? m[3] ?? (m[5] ? String(wordsToNumber(m[5].trim()) ?? '') : '');
    const days = Number(value);
    if (!value || !Number.isFinite(days) || days <= 0 || days > 1000) continue;
    found.push({ days, trading: Boolean(m[6] && /trading/i.test(m[6])), ordinal: Boolean(m[4]), index: m.index, length: m[0].length });
  }
  return found;
}

/** Sentences of a passage (its lines first, then full stops before a capital or an opening bracket). */
function sentences(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line) => line.split(/(?<=[.;:])\s+(?=(?:[A-Z"(\u201c]))/))
    .map((s) => s.trim())
    .filter(Boolean);
}

// ---------------------------------------------------------------------------------------------
// Cover facts.

/** `t`: the document's plain text (see plain()). */
function coverFacts(t: string) {
  const date =
    new RegExp(`date of this prospectus is\\s+${DATE}`, 'i').exec(t) ??
    new RegExp(`prospectus dated\\s+${DATE}`, 'i').exec(t) ??
    new RegExp(`prospectus\\s+(?:supplement\\s+)?dated\\s+${DATE}`, 'i').exec(t);
  const prospectusDate = date ? isoDate(date[1], date[2], date[3]) : null;
  const price = /(?:initial\s+)?public\s+offering\s+price\s+(?:per\s+share\s+)?(?:is|of|will\s+be)\s+\$\s?(\d{1,6}(?:,\d{3})*\.\d{2})/i.exec(t);
  const ipoPrice = price ? price[1].replace(/,/g, '') : null;
  const company =
    /(?:initial\s+)?public\s+offering\s+of\s+(?:shares\s+of\s+)?(?:(?:our\s+)?Class\s+[A-Z]\s+)?(?:common\s+stock|ordinary\s+shares|American Depositary Shares)\s+of\s+([A-Z][\w.,&' -]{1,80}?(?:Inc\.|Corp\.|Corporation|Ltd\.|Limited|plc|N\.V\.|S\.A\.|Co\.|Holdings|Group|LLC|L\.P\.))/.exec(t) ??
    /\b([A-Z][\w.,&' -]{1,80}?(?:Inc\.|Corp\.|Corporation|Ltd\.|Limited|plc|N\.V\.|Holdings, Inc\.))\s+is\s+offering\s+[\d,]+\s+shares/.exec(t);
  const companyName = company ? company[1].trim() : null;
  let offered = 0n;
  const primary = /\bWe\s+are\s+offering\s+([\d,]{4,})\s+shares/i.exec(t) ?? /\bis\s+offering\s+([\d,]{4,})\s+shares/.exec(t);
  if (primary) offered += BigInt(digits(primary[1]));
  const secondary = /selling\s+(?:stockholders|shareholders)[^.]{0,120}?\s+are\s+offering\s+(?:an\s+additional\s+)?([\d,]{4,})\s+shares/i.exec(t);
  if (secondary) offered += BigInt(digits(secondary[1]));
  if (!primary && !secondary) {
    const only = /\b(?:initial\s+)?public\s+offering\s+of\s+([\d,]{4,})\s+shares/i.exec(t);
    if (only) offered = BigInt(digits(only[1]));
  }
  const offeringType: 'ipo' | null = /\bThis\s+is\s+(?:an|our)\s+initial\s+public\s+offering\b|\binitial\s+public\s+offering\s+price\b/i.test(t) ? 'ipo' : null;
  return { prospectusDate, ipoPrice, companyName, sharesOffered: offered > 0n ? offered.toString() : null, offeringType };
}

const FIRM = /^[A-Z][\w.,&' -]{1,80}?\s(?:LLC|L\.L\.C\.|Inc\.|Incorporated|Corporation|Corp\.|Co\.|Limited|Ltd\.|plc|L\.P\.|AG|Securities|Capital|Partners)$/;

/** Bookrunners as written: the representatives whose consent lifts the lock-up, and "X and Y are acting as representatives / book-running managers". */
function underwriters(t: string): string[] {
  const names = new Set<string>();
  const add = (list: string) => {
    for (const piece of list.split(/,?\s+and\s+(?=[A-Z])/)) {
      const name = piece.trim();
      if (FIRM.test(name)) names.add(name);
      else for (const part of name.split(/,\s+/)) if (FIRM.test(part.trim())) names.add(part.trim());
    }
  };
  const consent = /written\s+consent\s+of\s+([A-Z].{2,250}?)(?:,?\s+(?:on\s+behalf\s+of|as\s+(?:the\s+)?representatives?\b)|,?\s+(?:we|they)\s+will\b)/g;
  for (let m = consent.exec(t); m; m = consent.exec(t)) add(m[1]);
  const acting = /(?:^|[.;]\s+)([A-Z][^.;]{2,300}?(?:LLC|Inc\.|Incorporated|Corporation|L\.P\.))\s+(?:are|is)\s+acting\s+as\s+(?:the\s+)?(?:joint\s+)?(?:book[- ]running\s+managers?|representatives?)/g;
  for (let m = acting.exec(t); m; m = acting.exec(t)) add(m[1]);
  return [...names];
}

/** "we will have a total of N shares of our Class A common stock ... and M shares of our Class B common stock outstanding": the sum. */
function sharesOutstandingAfter(blocks: Block[]): string | null {
  for (const block of blocks) {
    const t = block.plain;
    if (!/\bwe\s+will\s+have\b/i.test(t)) continue;
    const at = t.search(/\b(?:Upon|After|Following)\s+(?:the\s+)?(?:completion|closing|consummation)?\s*(?:of\s+)?(?:this|the)\s+offering\b[^.]{0,200}?\bwe\s+will\s+have\b/i);
    if (at < 0) continue;
    // The sentence, without the "(or N shares if the underwriters exercise ...)" alternatives.
    const sentence = t.slice(at).replace(/\(or\s+[^)]*\)/gi, '');
    const first = /\bwe\s+will\s+have\s+(?:outstanding\s+)?(?:a\s+total\s+of\s+|an\s+aggregate\s+of\s+)?([\d,]{4,})\s+shares/i.exec(sentence);
    if (!first) continue;
    let total = BigInt(digits(first[1]));
    const more = /\band\s+([\d,]{4,})\s+shares\s+of\s+(?:our\s+)?(?:Class\s+[A-Z]\s+)?(?:common\s+stock|ordinary\s+shares)\s+outstanding\b/gi;
    for (let m = more.exec(sentence); m; m = more.exec(sentence)) total += BigInt(digits(m[1]));
    return total.toString();
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The lock-up itself.

const ISSUER_SUBJECT = /^(?:In addition,\s+)?(?:We|The Company|the Company|The Issuer)\s+(?:have|has)\s+(?:also\s+)?agreed\b/;
const HOLDER_WORDS = /\b(?:directors?|officers?|stockholders?|shareholders?|holders?|securityholders?|members of (?:our )?management|selling)\b/i;

function boundPartiesOf(sentenceList: string[]): { text: string; index: number } | null {
  for (let i = 0; i < sentenceList.length; i += 1) {
    const s = sentenceList[i];
    if (ISSUER_SUBJECT.test(s)) continue;
    const m = /^(.{3,500}?)\s+(?:have|has)\s+(?:each\s+)?agreed\b|^(.{3,500}?)\s+(?:are|is|will\s+be)\s+subject\s+to\s+(?:a\s+|the\s+)?(?:lock[- ]?up|market\s+stand-?off)/i.exec(s);
    const subject = m ? (m[1] ?? m[2]) : null;
    if (subject && HOLDER_WORDS.test(subject)) return { text: subject.replace(/^(?:In addition,\s+|Pursuant to [^,]+,\s+)/i, '').trim(), index: i };
  }
  return null;
}

function eventLabel(when: string, days: number | null): string {
  const named = /\(the\s+"([^"]+)"\)/.exec(plain(when))?.[1];
  const suffix = named ? ` (${named})` : '';
  if (/first\s+trading\s+day/i.test(when) && !/earnings/i.test(when)) return `Day 1 (first trading day)${suffix}`;
  if (days !== null) return `${days} days${suffix}`;
  const later = /\blater\s+of\b[\s\S]*?\b(\d{1,3})(?:st|nd|rd|th)\s+day\b/i.exec(when);
  if (later) return `Later of an earnings release and day ${later[1]}${suffix}`;
  if (/earnings/i.test(when)) return `After an earnings release${suffix}`;
  return `On an event${suffix}`;
}

/** Days when a release is a plain count from the prospectus date ("the 181st day after the date of this prospectus"), null when tied to an event. */
function plainDays(when: string): number | null {
  const t = plain(when);
  if (/\blater\s+of\b|\bearlier\s+of\b|\bearnings\b|\bfirst\s+trading\s+day\b|\bprovided\b/i.test(t)) return null;
  const found = periods(t).filter((p) => !p.trading);
  return found.length === 1 ? found[0].days : null;
}

/** The release table of "Shares Eligible for Future Sale" ("Earliest Date Available for Sale" | "Number of Shares"). */
function releaseTable(blocks: Block[]): ParsedLockupTranche[] {
  const header = blocks.findIndex((b) => b.table !== null && /earliest\s+date|date\s+available\s+for\s+sale|days\s+after\s+the\s+date\s+of\s+this\s+prospectus/i.test(b.text) && /shares/i.test(b.text) && (b.cells?.length ?? 0) >= 2 && b.text.length < 300);
  if (header < 0) return [];
  const table = blocks[header].table;
  const tranches: ParsedLockupTranche[] = [];
  for (let i = header + 1; i < blocks.length && blocks[i].table === table; i += 1) {
    const cells = blocks[i].cells;
    if (!cells || cells.length < 2) continue;
    const when = cells[0];
    const what = cells.slice(1).join(' ');
    const days = plainDays(when);
    const count = /(?:up\s+to\s+)?(?:approximately\s+)?(\d[\d,]*(?:\.\d+)?)\s*(million|billion)?\s+(?:additional\s+)?shares/i.exec(plain(what));
    const pct = /(\d{1,3}(?:\.\d+)?)\s?%/.exec(what);
    tranches.push({
      days,
      event: days === null ? squash(when) : null,
      shares: count ? shareCount(count[1], count[2]) : null,
      sharePct: pct ? Number(pct[1]) / 100 : null,
      label: eventLabel(when, days),
    });
  }
  return tranches;
}

/** Staged releases written out in the clause: "(i) 25% of such shares ... on the 90th day after the date of this prospectus; (ii) ...". */
function stagedReleases(passage: string): ParsedLockupTranche[] {
  const t = plain(passage);
  const parts = t.split(/;\s+|,?\s+(?=\((?:[ivx]+|[a-h]|\d)\)\s)|\.\s+(?=[A-Z])/);
  const tranches: ParsedLockupTranche[] = [];
  for (const part of parts) {
    const found = periods(part).filter((p) => !p.trading);
    if (found.length !== 1) continue;
    const pct = /(\d{1,3}(?:\.\d+)?)\s?%\s+of\s+(?:the\s+|such\s+|their\s+|its\s+|each\s+[\w' ]+?\s+)?(?:shares|locked|restricted|securities|lock-up)/i.exec(part);
    const remaining = /\b(?:the\s+)?remaining\s+(?:shares|securities|\d{1,3}\s?%)/i.test(part);
    if (!pct && !remaining) continue;
    tranches.push({
      days: found[0].days,
      event: null,
      shares: null,
      sharePct: pct ? Number(pct[1]) / 100 : null,
      label: `${found[0].days} days`,
    });
  }
  return tranches.length >= 2 ? tranches.sort((a, b) => (a.days ?? 0) - (b.days ?? 0)) : [];
}

/** Price triggers: "at least 33% greater than the initial public offering price ... for any 10 trading days out of the 15-consecutive ... period". */
function earlyReleases(blocks: Block[], from: number, to: number): ParsedEarlyRelease[] {
  const found: ParsedEarlyRelease[] = [];
  for (let i = from; i < to; i += 1) {
    const t = blocks[i].plain;
    if (!t.includes('%')) continue;
    const above = /(?:at\s+least|exceeds?|more\s+than|greater\s+than\s+or\s+equal\s+to)\s+(\d{1,3}(?:\.\d+)?)\s?%\s+(?:greater\s+than|above|higher\s+than|over)\s+(?:the\s+)?(?:initial\s+)?(?:public\s+)?offering\s+price/i.exec(t);
    const of = above ? null : /(?:at\s+least|equal\s+to\s+or\s+greater\s+than|exceeds?)\s+(\d{2,3}(?:\.\d+)?)\s?%\s+of\s+the\s+(?:initial\s+)?(?:public\s+)?offering\s+price/i.exec(t);
    const multiple = above ? 1 + Number(above[1]) / 100 : of ? Number(of[1]) / 100 : null;
    if (multiple === null) continue;
    // N of M trading days: in this block or the next few (the bullets that follow it).
    let window: RegExpExecArray | null = null;
    let windowText = '';
    for (let j = i; j < Math.min(to, i + 4) && !window; j += 1) {
      const candidate = blocks[j].plain;
      window =
        /(\d{1,3})\s+(?:trading\s+days?\s+)?(?:out\s+)?of\s+(?:the\s+|any\s+)?(\d{1,3})[- ](?:consecutive|trading)/i.exec(candidate) ??
        /(\d{1,3})\s+(?:out\s+)?of\s+(?:any\s+)?(\d{1,3})\s+(?:consecutive\s+)?trading\s+days/i.exec(candidate);
      if (window && j !== i) windowText = blocks[j].text;
    }
    const share = /(?:up\s+to\s+)?(\d{1,3}(?:\.\d+)?)\s?%\s+of\s+(?:the\s+|such\s+|their\s+)?(?:shares|outstanding|locked|securities)/i.exec(t);
    const description = squash(`${blocks[i].text}${windowText ? ` ${windowText}` : ''}`);
    found.push({
      description: description.length > 900 ? `${description.slice(0, 899)}\u2026` : description,
      priceMultiple: Math.round(multiple * 10000) / 10000,
      days: window ? Number(window[1]) : null,
      windowDays: window ? Number(window[2]) : null,
      sharePct: share && share.index < (above ?? of)!.index ? Number(share[1]) / 100 : null,
    });
  }
  // One per multiple: the most complete.
  const byMultiple = new Map<number, ParsedEarlyRelease>();
  const completeness = (e: ParsedEarlyRelease) => (e.days !== null ? 2 : 0) + (e.sharePct !== null ? 1 : 0);
  for (const e of found) {
    const seen = byMultiple.get(e.priceMultiple ?? -1);
    if (!seen || completeness(e) > completeness(seen)) byMultiple.set(e.priceMultiple ?? -1, e);
  }
  return [...byMultiple.values()];
}

function issuerLockupOf(sentenceList: string[]): ParsedIssuerLockup | null {
  for (const s of sentenceList) {
    if (!ISSUER_SUBJECT.test(s) && !/^(?:We|The Company)\s+will\s+not\b/.test(s)) continue;
    if (!/lock[- ]?up|issu|sell|offer/i.test(s)) continue;
    const t = plain(s);
    const calendar = periods(t).find((p) => !p.trading);
    const trading = /(\d{1,3})\s+trading\s+days\s+(?:following|after|from)\s+(.{3,400}?)\.?$/i.exec(t);
    if (!calendar && !trading) continue;
    return {
      days: calendar ? calendar.days : null,
      tradingDays: trading ? Number(trading[1]) : null,
      event: trading && !/date\s+of\s+this\s+prospectus/i.test(trading[2]) ? trading[2].trim() : null,
      text: s,
    };
  }
  return null;
}

const EVENT_PERIOD = /period\s+ending\s+on\s+(the\s+(?:later|earlier)\s+of\s+.{10,900}?)\s*\((?:such\s+period|the\s+"restricted\s+period")|period\s+ending\s+on\s+(the\s+(?:later|earlier)\s+of\s+.{10,900}?)[,:]\s/i;

/** The prospectus, read: cover facts, the lock-up (period, who is bound, release steps, early-release triggers) and why anything was not read. */
export function parseProspectus(html: string): ParsedProspectus {
  const blocks = toBlocks(prospectusDocument(html));
  const all = blocks.map((b) => b.plain).join('\n');
  const cover = coverFacts(all);
  const passage = findPassage(blocks);
  const problems: string[] = [];

  let lockupDays: number | null = null;
  let boundParties: string | null = null;
  let tranches: ParsedLockupTranche[] = [];
  let earlyRelease: ParsedEarlyRelease[] = [];
  let issuerLockup: ParsedIssuerLockup | null = null;
  let eventPeriod: string | null = null;
  let sharesLockedUp: string | null = null;
  const outstanding = sharesOutstandingAfter(blocks);

  if (!passage) {
    problems.push('no lock-up section was found');
  } else {
    const list = sentences(passage.text);
    const bound = boundPartiesOf(list);
    boundParties = bound?.text ?? null;
    issuerLockup = issuerLockupOf(list);
    // The holders' periods: every sentence but the issuer's own.
    const holderText = list.filter((s) => !ISSUER_SUBJECT.test(s)).map(plain).join(' ');
    const holderPeriods = periods(holderText);
    const calendar = holderPeriods.filter((p) => !p.trading);
    // "no sales ... until at least 60 days after the date of this prospectus" is a floor, not the period.
    const headline = calendar.filter((p) => !/until\s+at\s+least\s*$|no\s+(?:sales|transfers)[^.]{0,80}$/i.test(holderText.slice(Math.max(0, p.index - 80), p.index)));
    const event = EVENT_PERIOD.exec(plain(passage.text));
    eventPeriod = event ? squash((event[1] ?? event[2]).replace(/\s+\($/, '')) : null;
    if (eventPeriod) {
      lockupDays = null;
    } else if (headline.length) {
      lockupDays = Math.max(...headline.map((p) => p.days));
    }
    if (!eventPeriod && !headline.length && holderPeriods.some((p) => p.trading)) problems.push('the lock-up period is stated in trading days: no calendar date is computed');

    tranches = releaseTable(blocks);
    if (!tranches.length) tranches = stagedReleases(passage.text);
    if (!tranches.length && lockupDays !== null) {
      const distinct = [...new Set(headline.map((p) => p.days))].sort((a, b) => a - b);
      tranches = distinct.map((days) => ({ days, event: null, shares: null, sharePct: null, label: `${days} days` }));
    }
    if (!tranches.length && eventPeriod) {
      tranches = [{ days: null, event: eventPeriod, shares: null, sharePct: null, label: eventLabel(eventPeriod, null) }];
    }
    if (!tranches.length) problems.push('the lock-up period wording was not recognised');
    const eventTranches = tranches.map((t, i) => (t.days === null ? i + 1 : 0)).filter(Boolean);
    if (eventTranches.length) {
      problems.push(`release ${eventTranches.length === tranches.length ? (tranches.length === 1 ? 'is' : 'steps are all') : `step${eventTranches.length > 1 ? 's' : ''} ${eventTranches.join(', ')} ${eventTranches.length > 1 ? 'are' : 'is'}`} tied to an event (first trading day, earnings release), not a number of days: no date is computed`);
    }

    const from = Math.min(passage.start, blocks.findIndex((b) => /earliest\s+date|date\s+available\s+for\s+sale/i.test(b.text)) === -1 ? passage.start : blocks.findIndex((b) => /earliest\s+date|date\s+available\s+for\s+sale/i.test(b.text)));
    earlyRelease = earlyReleases(blocks, from, passage.end);

    // Shares locked up: a stated count, else a stated % of the outstanding shares.
    const passageText = plain(passage.text);
    const count = /([\d,]{5,})\s+shares\s+(?:of\s+(?:our\s+)?(?:Class\s+[A-Z]\s+)?common\s+stock\s+)?(?:held\s+by\s+[^.]{0,200}?\s+)?(?:are|will\s+be)\s+subject\s+to\s+(?:the\s+|these\s+|such\s+)?lock-?up/i.exec(passageText);
    const pct = bound ? /(\d{1,3}(?:\.\d+)?)\s?%\s+of\s+(?:our|the)\s+(?:then\s+)?outstanding/i.exec(plain(bound.text)) : null;
    if (count) sharesLockedUp = digits(count[1]);
    else if (pct && outstanding) sharesLockedUp = ((BigInt(outstanding) * BigInt(Math.round(Number(pct[1]) * 1000)) + 50_000n) / 100_000n).toString();
    else if (tranches.length && tranches.every((t) => t.shares !== null)) sharesLockedUp = tranches.reduce((sum, t) => sum + BigInt(t.shares as string), 0n).toString();
  }
  if (!cover.prospectusDate && tranches.some((t) => t.days !== null)) problems.push('no prospectus date was found: the expiry cannot be computed');

  return {
    companyName: cover.companyName,
    prospectusDate: cover.prospectusDate,
    ipoPrice: cover.ipoPrice,
    sharesOffered: cover.sharesOffered,
    underwriters: underwriters(all),
    sharesOutstandingAfter: outstanding,
    lockupDays,
    boundParties,
    tranches,
    earlyRelease,
    sharesLockedUp,
    clause: passage ? clip(passage.text) : null,
    reviewReason: problems.length ? problems.join('; ') : null,
    offeringType: cover.offeringType,
    issuerLockup,
  };
}

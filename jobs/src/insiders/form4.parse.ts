import { join } from 'node:path';
import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { SaxesParser } from 'saxes';

// SEC Form 4 (and 4/A) parser: pure, no I/O. Reads every wrapper a Form 4 arrives in and returns
// one transaction per line of its two tables. Quirks of the recorded filings (data/README.md):
// - full submission `.txt`: an SGML header ("ACCESSION NUMBER:\t\t...", `<ACCEPTANCE-DATETIME>`)
//   around `<DOCUMENT>`s, the ownershipDocument inside `<XML>...</XML>`; 2007 filings wear an extra
//   `-----BEGIN PRIVACY-ENHANCED MESSAGE-----` envelope;
// - `.nc` dissemination files: angle-bracket header tags (`<ACCESSION-NUMBER>`, `<FILING-DATE>`),
//   CR-only line breaks (the first line alone ends with LF), no acceptance time;
// - bare ownershipDocument XML (the primary document).
// Schemas X0202..X0609: `aff10b5One` exists from X0508 on; booleans are written 0/1 or true/false;
// a `<footnoteId>` can sit beside a `<value>` or replace it; holdings sit in the same tables as
// transactions and are left out.

export type Form4Wrapper = 'full-submission' | 'nc' | 'xml';
export type Form4ParseErrorKind = 'not-form4' | 'malformed' | 'truncated' | 'missing-field';

/** Why a document could not be read as a Form 4; the message names what is wrong. */
export class Form4ParseError extends Error {
  constructor(
    readonly kind: Form4ParseErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'Form4ParseError';
  }
}

export interface ParsedReportingOwner {
  /** 10 digits, zero-padded. */
  cik: string;
  name: string;
  isOfficer: boolean;
  isDirector: boolean;
  isTenPercentOwner: boolean;
  isOther: boolean;
  officerTitle: string | null;
  otherText: string | null;
}

export interface ParsedTransaction {
  table: 'non-derivative' | 'derivative';
  /** 1-based within its table, transactions only (holdings skipped). */
  lineNumber: number;
  securityTitle: string | null;
  /** YYYY-MM-DD. */
  transactionDate: string;
  transactionCode: string;
  equitySwap: boolean;
  /** Decimal string; '0' only if filed so. */
  sharesTraded: string;
  pricePerShare: string | null;
  /** A footnote of the price says it is a weighted average (the range is in priceFootnote). */
  isWeightedPrice: boolean;
  /** The texts of the price's footnotes joined by ' '. */
  priceFootnote: string | null;
  acquiredDisposed: 'A' | 'D' | null;
  sharesOwnedAfter: string | null;
  directOrIndirect: 'D' | 'I' | null;
  natureOfOwnership: string | null;
  exercisePrice: string | null;
  underlyingTitle: string | null;
  underlyingShares: string | null;
  /** shares x price to cents (ROUND_HALF_UP); null without a price. */
  totalValue: string | null;
  /** A footnote of THIS line naming a 10b5-1 plan -> true (a negated one -> false); else the filing's value. */
  rule10b5One: boolean | null;
  /** Every footnote id referenced anywhere in the line, in order of first appearance. */
  footnoteIds: string[];
}

export interface ParsedForm4 {
  wrapper: Form4Wrapper;
  /** From the header; null for bare XML. */
  accessionNumber: string | null;
  formType: '4' | '4/A';
  schemaVersion: string | null;
  /** ISO UTC from ACCEPTANCE-DATETIME (America/New_York); null when the wrapper has none. */
  filedAt: string | null;
  filingDate: string | null;
  periodOfReport: string | null;
  dateOfOriginalSubmission: string | null;
  issuer: { cik: string; name: string; ticker: string | null };
  /** At least one; the first is the one a line is counted under. */
  reportingOwners: ParsedReportingOwner[];
  rule10b5One: boolean | null;
  rule10b5OneFrom: 'checkbox' | 'footnote' | null;
  footnotes: Record<string, string>;
  remarks: string | null;
  transactions: ParsedTransaction[];
}

/** The recorded real filings in data/ (README.md there gives each one's origin); replay serves them. */
export const FORM4_SAMPLE_FILES: readonly string[] = [
  'sec_form4_AIR_2025-01-10_code_S_fullsubmission.txt',
  'sec_form4_AOSL_2025-03-17_codes_A_F_fullsubmission.txt',
  'sec_form4_ARW_2025-02-12_codes_A_F_nc-format.nc',
  'sec_form4_IHT_2025-09-25_code_S_price-typo-22625_aff10b5One-1_fullsubmission.txt',
  'sec_form4_META_2025-10-31_codes_C_G_gift_X0508_primarydoc.xml',
  'sec_form4_MVIS_2026-06-08_codes_M_F_A_X0609.xml',
  'sec_form4_NCV_2007-08-17_code_P_X0202_pem-wrapped_fullsubmission.txt',
  'sec_form4_SCWO_2025-04-30_code_A.xml',
  'sec_form4_SNOW_2022-12-13_codes_M_S.xml',
  'sec_form4_TSVT_2025-01-06_code_A_truefalse-booleans_nc-format.nc',
  'sec_form4_WDAY_2025-03-05_code_F_fullsubmission.txt',
  'sec_form4_ZIP_2025-03-15_codes_M_F_fullsubmission.txt',
  'sec_form4A_ATEX_2026-09-08_amendment_codes_S_F_M_X0609_THIRD-PARTY-TRIMMED.xml',
];

/** Where the recorded payloads live (Form 4s, the Atom feed, the daily index, tickers, submissions). */
export const INSIDERS_RECORDINGS_DIR = join(__dirname, 'data');

// ---------------------------------------------------------------------------------------------
// The XML tree: a small ordered tree built from the events of saxes, a strict (non-validating)
// XML 1.0 parser that checks well-formedness and decodes entities and character references in
// the same single pass. Only what the reader needs is kept: element names, the `id` attribute
// (footnote ids), the children in order and the decoded text.

interface XElement {
  readonly name: string;
  readonly id: string | null;
  readonly kids: XElement[];
  text: string;
}

function child(parent: XElement | undefined, tag: string): XElement | undefined {
  if (!parent) return undefined;
  for (const node of parent.kids) if (node.name === tag) return node;
  return undefined;
}

function children(parent: XElement | undefined, tag: string): XElement[] {
  const out: XElement[] = [];
  if (!parent) return out;
  for (const node of parent.kids) if (node.name === tag) out.push(node);
  return out;
}

/**
 * The text of an element, whitespace runs squeezed (our normalisation); null when empty. An
 * element written `<tag><value>text</value><footnoteId/></tag>` has the text of its `<value>`.
 */
function textOf(element: XElement | undefined): string | null {
  if (!element) return null;
  const value = element.kids.length > 0 ? child(element, 'value') : undefined;
  let out = value ? value.text : element.text;
  if (/[\t\n\r\u00a0]| {2}/.test(out)) out = out.replace(/[\s\u00a0]+/g, ' ');
  out = out.trim();
  return out === '' ? null : out;
}

/** The text of `<tag>` directly under parent (see textOf). Null when absent or empty. */
function textIn(parent: XElement | undefined, tag: string): string | null {
  return textOf(child(parent, tag));
}

/** The footnote ids directly inside `<tag>` (beside or instead of its value). */
function footnoteIdsOf(parent: XElement | undefined, tag: string): string[] {
  const ids: string[] = [];
  for (const node of child(parent, tag)?.kids ?? []) {
    if (node.name === 'footnoteId' && node.id) ids.push(node.id);
  }
  return ids;
}

/** Every footnote id anywhere under element, in document order, once each. */
function collectFootnoteIds(element: XElement, into: string[]): void {
  for (const node of element.kids) {
    if (node.name === 'footnoteId') {
      if (node.id && !into.includes(node.id)) into.push(node.id);
    } else {
      collectFootnoteIds(node, into);
    }
  }
}

/** 0/1 and true/false (any case); null when empty or something else. */
function bool(value: string | null): boolean | null {
  if (value === null) return null;
  const v = value.toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  return null;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A decimal string as filed, normalised ("106150.00" -> "106150"); null when absent. */
function decimal(value: string | null, what: string): string | null {
  if (value === null) return null;
  const raw = value.includes(',') ? value.replace(/,/g, '') : value;
  if (!DECIMAL.test(raw)) throw new Form4ParseError('malformed', `${what} "${value.slice(0, 40)}" is not a number`);
  return new Decimal(raw).toFixed();
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** YYYY-MM-DD from an xs:date (which may carry a zone suffix); null when absent. */
function isoDate(value: string | null, what: string): string | null {
  if (value === null) return null;
  const match = ISO_DATE.exec(value);
  if (!match) throw new Form4ParseError('malformed', `${what} "${value.slice(0, 40)}" is not a date`);
  return `${match[1]}-${match[2]}-${match[3]}`;
}

function cik10(value: string | null, what: string): string {
  if (value === null) throw new Form4ParseError('missing-field', `${what} is missing`);
  if (!/^\d{1,10}$/.test(value)) throw new Form4ParseError('malformed', `${what} "${value.slice(0, 40)}" is not a CIK`);
  return value.padStart(10, '0');
}

const NO_TICKER = new Set(['', 'NONE', 'N/A']);

// ---------------------------------------------------------------------------------------------
// 10b5-1 plans named in text (schemas before X0508 have no aff10b5One checkbox, and filers often
// explain a plan in a footnote even where it exists). Accepted spellings: "10b5-1", "10b-5-1",
// "10(b)5-1", "10b5 - 1", any Unicode hyphen or dash (U+2010..U+2014, e.g. the non-breaking
// "10b5‑1"), and the common typo "10b5-l". "Rule 10b-5" (the anti-fraud rule) is not a plan and
// does not match. Every piece of the pattern is bounded, so it cannot backtrack badly.
//
// Decision on negation: a mention whose sentence, before the rule number, holds "not", "no",
// "never", "neither", "nor", "without", "outside" or "n't" ("The sales were not made pursuant to
// a Rule 10b5-1 plan") is a NEGATED mention: it never counts as a plan. A text with at least one
// plain mention says "yes"; a text with only negated mentions says "no" (an explicit statement
// that the trade was discretionary: false, not unknown); a text without any says nothing.
// Known limit: a negation elsewhere in the same sentence ("shares withheld, which were not sold,
// and shares sold under a 10b5-1 plan") reads as negated; the checkbox wins where it exists.
const RULE_10B5_1 = /10\s?\(?b\)?\s?[-\u2010-\u2014]?\s?5\s?[-\u2010-\u2014]\s?1(?!\d)|10b5-l(?![a-z])/gi;
const NEGATION = /\b(?:not|no|never|neither|nor|without|outside)\b|n't\b/i;
const NEGATION_WINDOW = 160;

type PlanMention = 'yes' | 'no' | null;

/** What a footnote or remark says about a 10b5-1 plan (see the decision above). */
export function mentions10b5One(text: string): PlanMention {
  let verdict: PlanMention = null;
  RULE_10B5_1.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = RULE_10B5_1.exec(text)) !== null) {
    const from = Math.max(0, match.index - NEGATION_WINDOW);
    let before = text.slice(from, match.index);
    const sentence = Math.max(before.lastIndexOf('. '), before.lastIndexOf('; '));
    if (sentence >= 0) before = before.slice(sentence + 2);
    if (!NEGATION.test(before)) return 'yes';
    verdict = 'no';
  }
  return verdict;
}

function combine(a: PlanMention, b: PlanMention): PlanMention {
  if (a === 'yes' || b === 'yes') return 'yes';
  return a ?? b;
}

const WEIGHTED_AVERAGE = /weighted[\s-]*average/i;

// ---------------------------------------------------------------------------------------------
// Wrappers.

interface Envelope {
  wrapper: Form4Wrapper;
  xml: string;
  accessionNumber: string | null;
  submissionType: string | null;
  acceptance: string | null;
  filingDate: string | null;
  periodOfReport: string | null;
  issuerName: string | null;
}

const PEM_BEGIN = '-----BEGIN PRIVACY-ENHANCED MESSAGE-----';
const LINE_BREAK = /\r\n|\r|\n/;

function headerDate(value: string | null): string | null {
  if (!value) return null;
  const match = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(value);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

function decode(input: string | Buffer): string {
  if (typeof input === 'string') return input;
  const utf8 = input.toString('utf8');
  // EDGAR documents are ASCII or Latin-1; a byte that is not UTF-8 shows up as U+FFFD.
  return utf8.includes('\uFFFD') ? input.toString('latin1') : utf8;
}

/** The `<XML>` document of a wrapped submission, after its header ends at headerEnd. */
function embeddedXml(text: string, headerEnd: number, endTag: string): string {
  const start = text.indexOf('<XML>', headerEnd);
  if (start < 0) {
    if (text.includes(endTag)) throw new Form4ParseError('not-form4', 'the submission holds no XML ownershipDocument (a text-only filing is not read)');
    throw new Form4ParseError('truncated', `the submission is cut off before its XML document (no <XML> and no ${endTag})`);
  }
  const end = text.indexOf('</XML>', start);
  if (end < 0) throw new Form4ParseError('truncated', 'the submission is cut off inside its XML document (no </XML>)');
  return text.slice(start + 5, end);
}

/** Full submission (`<SEC-DOCUMENT>`, SGML header with "KEY:\tvalue" lines). */
function fullSubmission(text: string): Envelope {
  const headerEnd = text.indexOf('</SEC-HEADER>');
  if (headerEnd < 0) throw new Form4ParseError('truncated', 'the submission is cut off inside its SEC header (no </SEC-HEADER>)');
  const envelope: Envelope = {
    wrapper: 'full-submission',
    xml: '',
    accessionNumber: null,
    submissionType: null,
    acceptance: null,
    filingDate: null,
    periodOfReport: null,
    issuerName: null,
  };
  let section = '';
  for (const line of text.slice(0, headerEnd).split(LINE_BREAK)) {
    if (line.startsWith('<ACCEPTANCE-DATETIME>')) {
      envelope.acceptance = line.slice(21).trim();
      continue;
    }
    if (line.startsWith('<SEC-DOCUMENT>') && !envelope.accessionNumber) {
      envelope.accessionNumber = /^<SEC-DOCUMENT>(\d{10}-\d{2}-\d{6})/.exec(line)?.[1] ?? null;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (line[0] !== '\t' && line[0] !== ' ' && value === '' && !key.includes(' ')) {
      section = key; // "ISSUER:", "REPORTING-OWNER:", ... (top-level keys have spaces: "FILED AS OF DATE:")
      continue;
    }
    if (section === '') {
      if (key === 'ACCESSION NUMBER') envelope.accessionNumber = value;
      else if (key === 'CONFORMED SUBMISSION TYPE') envelope.submissionType = value;
      else if (key === 'FILED AS OF DATE') envelope.filingDate = headerDate(value);
      else if (key === 'CONFORMED PERIOD OF REPORT') envelope.periodOfReport = headerDate(value);
    } else if (section === 'ISSUER' && key === 'COMPANY CONFORMED NAME' && !envelope.issuerName) {
      envelope.issuerName = value || null;
    }
  }
  checkSubmissionType(envelope.submissionType);
  envelope.xml = embeddedXml(text, headerEnd, '</SEC-DOCUMENT>');
  return envelope;
}

/** `.nc` dissemination file (`<SUBMISSION>`, one `<TAG>value` per line, often CR-only). */
function ncSubmission(text: string): Envelope {
  const headerEnd = text.indexOf('<DOCUMENT>');
  if (headerEnd < 0) throw new Form4ParseError('truncated', 'the submission is cut off inside its header (no <DOCUMENT>)');
  const envelope: Envelope = {
    wrapper: 'nc',
    xml: '',
    accessionNumber: null,
    submissionType: null,
    acceptance: null,
    filingDate: null,
    periodOfReport: null,
    issuerName: null,
  };
  let inIssuer = false;
  for (const line of text.slice(0, headerEnd).split(LINE_BREAK)) {
    if (line[0] !== '<') continue;
    const close = line.indexOf('>');
    if (close < 0) continue;
    const tag = line.slice(1, close);
    const value = line.slice(close + 1).trim();
    if (tag === 'ISSUER') inIssuer = true;
    else if (tag === '/ISSUER') inIssuer = false;
    else if (tag === 'ACCESSION-NUMBER') envelope.accessionNumber = value || null;
    else if (tag === 'TYPE' && envelope.submissionType === null) envelope.submissionType = value;
    else if (tag === 'ACCEPTANCE-DATETIME') envelope.acceptance = value || null;
    else if (tag === 'FILING-DATE') envelope.filingDate = headerDate(value);
    else if (tag === 'PERIOD') envelope.periodOfReport = headerDate(value);
    else if (tag === 'CONFORMED-NAME' && inIssuer && !envelope.issuerName) envelope.issuerName = value || null;
  }
  checkSubmissionType(envelope.submissionType);
  envelope.xml = embeddedXml(text, headerEnd, '</SUBMISSION>');
  return envelope;
}

function checkSubmissionType(type: string | null): void {
  if (type !== null && type !== '4' && type !== '4/A') {
    throw new Form4ParseError('not-form4', `the submission is a Form ${type.slice(0, 20)}, not a Form 4`);
  }
}

function envelopeOf(text: string): Envelope {
  let start = 0;
  while (start < text.length && (text.charCodeAt(start) <= 32 || text.charCodeAt(start) === 0xfeff)) start += 1;
  if (text.startsWith(PEM_BEGIN, start)) {
    // 1990s-2000s envelope: the submission follows the PEM headers.
    const inner = text.indexOf('<SEC-DOCUMENT>', start);
    if (inner < 0) throw new Form4ParseError('truncated', 'the privacy-enhanced message holds no <SEC-DOCUMENT>');
    start = inner;
  }
  const head = text.slice(start, start + 20);
  if (head.startsWith('<SEC-DOCUMENT>') || head.startsWith('<SEC-HEADER>')) return fullSubmission(start === 0 ? text : text.slice(start));
  if (head.startsWith('<SUBMISSION>')) return ncSubmission(start === 0 ? text : text.slice(start));
  if (head.startsWith('<')) {
    return {
      wrapper: 'xml',
      xml: start === 0 ? text : text.slice(start),
      accessionNumber: null,
      submissionType: null,
      acceptance: null,
      filingDate: null,
      periodOfReport: null,
      issuerName: null,
    };
  }
  throw new Form4ParseError('not-form4', `not a Form 4: neither an EDGAR submission nor ownershipDocument XML (starts with "${head.replace(/\s+/g, ' ').trim()}")`);
}

// The ownershipDocument is read by saxes in one pass. Its events build the tree above, leaving out
// the parts nothing reads (owner address, signature): they are still parsed, and so checked.
const UNREAD = new Set(['reportingOwnerAddress', 'ownerSignature']);
const ROOT = 'ownershipDocument';

function saxesParser(): SaxesParser {
  const parser = new SaxesParser();
  // One entity beyond XML's five is declared to the parser (which decodes it; nothing here does):
  // the non-breaking space some filers write, which the text normalisation turns into a space.
  parser.ENTITIES.nbsp = '\u00a0';
  return parser;
}

/** Stops the parse at the first element when only the name of the root is wanted. */
class RootFound {
  constructor(readonly name: string) {}
}

/** The name of the document's root element, or null when the parser fails before reaching one. */
function rootName(xml: string): string | null {
  const parser = saxesParser();
  parser.on('opentagstart', (tag) => {
    throw new RootFound(tag.name);
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof RootFound) return error.name;
  }
  return null;
}

/** saxes's "line:column: message" as "message (line L, column C of the XML document)". */
function wellFormednessError(error: Error): Form4ParseError {
  const at = /^(\d+):(\d+): /.exec(error.message);
  const problem = at ? `${error.message.slice(at[0].length)} (line ${at[1]}, column ${at[2]} of the XML document)` : error.message;
  return new Form4ParseError('malformed', `the ${ROOT} XML is not well-formed: ${problem}`);
}

/**
 * Checks and parses the ownershipDocument: not-form4 / truncated / malformed as the case may be.
 * saxes throws on the first well-formedness error (mismatched or unclosed tag, undefined entity,
 * a stray "&" or "<", a character XML does not allow, ...), naming it and its position.
 */
function ownershipDocument(embedded: string): XElement {
  // The XML declaration must open the document: the wrappers leave a line break before it.
  const xml = embedded.trim();
  const open = xml.indexOf(`<${ROOT}`);
  if (open < 0) {
    const root = rootName(xml);
    throw new Form4ParseError('not-form4', root ? `not a Form 4: the XML root is <${root}>, not <${ROOT}>` : `not a Form 4: no ${ROOT} XML`);
  }
  if (xml.indexOf(`</${ROOT}>`, open) < 0) {
    throw new Form4ParseError('truncated', `the ${ROOT} XML is cut off (no closing </${ROOT}>)`);
  }

  const parser = saxesParser();
  const document: XElement = { name: '', id: null, kids: [], text: '' };
  const path: XElement[] = [document];
  let current = document;
  let skipped = 0; // depth inside an unread element
  parser.on('opentag', (tag) => {
    if (skipped > 0 || UNREAD.has(tag.name)) {
      if (!tag.isSelfClosing) skipped += 1;
      return;
    }
    if (current === document && tag.name !== ROOT) throw new Form4ParseError('not-form4', `not a Form 4: the XML root is <${tag.name}>, not <${ROOT}>`);
    const element: XElement = { name: tag.name, id: tag.attributes.id ?? null, kids: [], text: '' };
    current.kids.push(element);
    if (!tag.isSelfClosing) {
      path.push(element);
      current = element;
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.isSelfClosing) return;
    if (skipped > 0) skipped -= 1;
    else {
      path.pop();
      current = path[path.length - 1];
    }
  });
  const text = (data: string): void => {
    if (skipped === 0) current.text += data;
  };
  parser.on('text', text);
  parser.on('cdata', text);
  try {
    parser.write(xml).close();
  } catch (error) {
    throw error instanceof Form4ParseError ? error : wellFormednessError(error as Error);
  }
  return document.kids[0];
}

// EDGAR's acceptance time is New York wall time. The zone's offset (luxon) is looked up once per
// local hour and kept: an Intl lookup costs more than the rest of a small filing's header.
const NEW_YORK_OFFSETS = new Map<string, number>();

function acceptanceToIso(value: string | null): string | null {
  if (!value || !/^\d{14}$/.test(value)) return null;
  const [year, month, day, hour, minute, second] = [0, 4, 6, 8, 10, 12].map((at) => Number(value.slice(at, at === 0 ? 4 : at + 2)));
  const hourKey = value.slice(0, 10);
  let offset = NEW_YORK_OFFSETS.get(hourKey);
  if (offset === undefined) {
    const local = DateTime.fromObject({ year, month, day, hour }, { zone: 'America/New_York' });
    if (!local.isValid) return null;
    offset = local.offset;
    if (NEW_YORK_OFFSETS.size > 100_000) NEW_YORK_OFFSETS.clear();
    NEW_YORK_OFFSETS.set(hourKey, offset);
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second) - offset * 60_000;
  return Number.isFinite(utc) && minute < 60 && second < 60 ? new Date(utc).toISOString() : null;
}

function owner(node: XElement, position: number): ParsedReportingOwner {
  const id = child(node, 'reportingOwnerId');
  const relationship = child(node, 'reportingOwnerRelationship');
  return {
    cik: cik10(textIn(id, 'rptOwnerCik'), `reportingOwner ${position}: rptOwnerCik`),
    name: textIn(id, 'rptOwnerName') ?? '',
    isOfficer: bool(textIn(relationship, 'isOfficer')) ?? false,
    isDirector: bool(textIn(relationship, 'isDirector')) ?? false,
    isTenPercentOwner: bool(textIn(relationship, 'isTenPercentOwner')) ?? false,
    isOther: bool(textIn(relationship, 'isOther')) ?? false,
    officerTitle: textIn(relationship, 'officerTitle'),
    otherText: textIn(relationship, 'otherText'),
  };
}

interface FootnoteFacts {
  text: string;
  plan: PlanMention;
  weighted: boolean;
}

function transaction(
  node: XElement,
  table: ParsedTransaction['table'],
  lineNumber: number,
  footnotes: Map<string, FootnoteFacts>,
  filingPlan: boolean | null,
): ParsedTransaction {
  const where = `${table} line ${lineNumber}`;
  const coding = child(node, 'transactionCoding');
  const amounts = child(node, 'transactionAmounts');
  const post = child(node, 'postTransactionAmounts');
  const nature = child(node, 'ownershipNature');
  const underlying = child(node, 'underlyingSecurity');

  const transactionDate = isoDate(textIn(node, 'transactionDate'), `${where}: transactionDate`);
  if (transactionDate === null) throw new Form4ParseError('missing-field', `${where}: transactionDate is missing`);
  const code = textIn(coding, 'transactionCode');
  if (code === null) throw new Form4ParseError('missing-field', `${where}: transactionCode is missing`);
  const shares = decimal(textIn(amounts, 'transactionShares'), `${where}: transactionShares`);
  if (shares === null) throw new Form4ParseError('missing-field', `${where}: transactionShares has no value`);
  const price = decimal(textIn(amounts, 'transactionPricePerShare'), `${where}: transactionPricePerShare`);

  let priceFootnote: string | null = null;
  let isWeightedPrice = false;
  for (const id of footnoteIdsOf(amounts, 'transactionPricePerShare')) {
    const facts = footnotes.get(id);
    if (!facts) continue;
    priceFootnote = priceFootnote === null ? facts.text : `${priceFootnote} ${facts.text}`;
    if (facts.weighted) isWeightedPrice = true;
  }

  const footnoteIds: string[] = [];
  collectFootnoteIds(node, footnoteIds);
  let linePlan: PlanMention = null;
  for (const id of footnoteIds) linePlan = combine(linePlan, footnotes.get(id)?.plan ?? null);

  const ad = textIn(amounts, 'transactionAcquiredDisposedCode')?.toUpperCase() ?? null;
  const di = textIn(nature, 'directOrIndirectOwnership')?.toUpperCase() ?? null;
  return {
    table,
    lineNumber,
    securityTitle: textIn(node, 'securityTitle'),
    transactionDate,
    transactionCode: code.toUpperCase(),
    equitySwap: bool(textIn(coding, 'equitySwapInvolved')) ?? false,
    sharesTraded: shares,
    pricePerShare: price,
    isWeightedPrice,
    priceFootnote,
    acquiredDisposed: ad === 'A' || ad === 'D' ? ad : null,
    sharesOwnedAfter: decimal(textIn(post, 'sharesOwnedFollowingTransaction'), `${where}: sharesOwnedFollowingTransaction`),
    directOrIndirect: di === 'D' || di === 'I' ? di : null,
    natureOfOwnership: textIn(nature, 'natureOfOwnership'),
    exercisePrice: table === 'derivative' ? decimal(textIn(node, 'conversionOrExercisePrice'), `${where}: conversionOrExercisePrice`) : null,
    underlyingTitle: textIn(underlying, 'underlyingSecurityTitle'),
    underlyingShares: decimal(textIn(underlying, 'underlyingSecurityShares'), `${where}: underlyingSecurityShares`),
    totalValue: price === null ? null : new Decimal(shares).times(price).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
    rule10b5One: linePlan === 'yes' ? true : linePlan === 'no' ? false : filingPlan,
    footnoteIds,
  };
}

/**
 * Parses one Form 4 or 4/A in any wrapper (full submission .txt, PEM-wrapped, .nc, bare XML).
 * Throws Form4ParseError; never returns a half-parsed filing. Accepts string or Buffer (latin1/utf8).
 */
export function parseForm4(input: string | Buffer): ParsedForm4 {
  const envelope = envelopeOf(decode(input));
  const doc = ownershipDocument(envelope.xml);

  const documentType = textIn(doc, 'documentType') ?? envelope.submissionType;
  if (documentType === null) throw new Form4ParseError('missing-field', 'documentType is missing');
  if (documentType !== '4' && documentType !== '4/A') {
    throw new Form4ParseError('not-form4', `the ownershipDocument is a Form ${documentType.slice(0, 20)}, not a Form 4`);
  }

  const issuerNode = child(doc, 'issuer');
  if (!issuerNode) throw new Form4ParseError('missing-field', 'issuer is missing');
  const issuerCik = cik10(textIn(issuerNode, 'issuerCik'), 'issuerCik');
  const issuerName = textIn(issuerNode, 'issuerName') ?? envelope.issuerName;
  if (issuerName === null) throw new Form4ParseError('missing-field', 'issuerName is missing');
  const symbol = (textIn(issuerNode, 'issuerTradingSymbol') ?? '').toUpperCase();

  const ownerNodes = children(doc, 'reportingOwner');
  if (ownerNodes.length === 0) throw new Form4ParseError('missing-field', 'reportingOwner is missing');
  const reportingOwners = ownerNodes.map((node, index) => owner(node, index + 1));

  const footnoteTexts: Record<string, string> = {};
  const footnoteFacts = new Map<string, FootnoteFacts>();
  let textPlan: PlanMention = null;
  for (const node of children(child(doc, 'footnotes'), 'footnote')) {
    const id = node.id;
    const text = textOf(node);
    if (!id || text === null) continue;
    const facts: FootnoteFacts = { text, plan: mentions10b5One(text), weighted: WEIGHTED_AVERAGE.test(text) };
    footnoteTexts[id] = text;
    footnoteFacts.set(id, facts);
    textPlan = combine(textPlan, facts.plan);
  }
  const remarks = textIn(doc, 'remarks');
  if (remarks !== null) textPlan = combine(textPlan, mentions10b5One(remarks));

  // The checkbox (X0508 on) wins; without it (or left empty), what the footnotes and remarks say.
  const checkbox = bool(textIn(doc, 'aff10b5One'));
  const rule10b5One = checkbox ?? (textPlan === 'yes' ? true : textPlan === 'no' ? false : null);
  const rule10b5OneFrom = checkbox !== null ? 'checkbox' : textPlan !== null ? 'footnote' : null;

  const transactions: ParsedTransaction[] = [];
  const tables = [
    ['non-derivative', 'nonDerivativeTable', 'nonDerivativeTransaction'],
    ['derivative', 'derivativeTable', 'derivativeTransaction'],
  ] as const;
  for (const [table, tableTag, lineTag] of tables) {
    const lines = children(child(doc, tableTag), lineTag);
    lines.forEach((line, index) => transactions.push(transaction(line, table, index + 1, footnoteFacts, rule10b5One)));
  }

  return {
    wrapper: envelope.wrapper,
    accessionNumber: envelope.accessionNumber,
    formType: documentType,
    schemaVersion: textIn(doc, 'schemaVersion'),
    filedAt: acceptanceToIso(envelope.acceptance),
    filingDate: envelope.filingDate,
    periodOfReport: isoDate(textIn(doc, 'periodOfReport'), 'periodOfReport') ?? envelope.periodOfReport,
    dateOfOriginalSubmission: isoDate(textIn(doc, 'dateOfOriginalSubmission'), 'dateOfOriginalSubmission'),
    issuer: { cik: issuerCik, name: issuerName, ticker: NO_TICKER.has(symbol) ? null : symbol },
    reportingOwners,
    rule10b5One,
    rule10b5OneFrom,
    footnotes: footnoteTexts,
    remarks,
    transactions,
  };
}

import { z } from 'zod';
import { normalizeAccession, normalizeCik, parseFormIndex, type FormIndexRow } from '../insiders/edgar-index.parse';

// Discovery parsers (pure) for prospectuses. Recorded samples in data/ (data/README.md):
// - an EDGAR full-text search answer (efts.sec.gov/LATEST/search-index): Elasticsearch shape,
//   `hits.hits[]` with `_id` "<accession>:<document file name>" and `_source` holding `ciks`
//   (10 digits), `adsh` (the accession), `form`, `root_form`, `file_date` (YYYY-MM-DD) and
//   `display_names` ("INTEL CORP  (INTC)  (CIK 0000050863)");
// - the daily form index (form.YYYYMMDD.idx), read by the insiders domain's parseFormIndex.

export interface FullTextSearchHit {
  /** 10 digits (the first filer named). */
  cik: string;
  accession: string;
  form: string;
  /** YYYY-MM-DD. */
  fileDate: string;
  displayName: string;
  /** The company name without the "(TICKER)" and "(CIK ...)" parts. */
  companyName: string;
  /** The first ticker named in display_names, upper-case, or null. */
  ticker: string | null;
  /** The matching document's file name (from `_id`), e.g. "d123456d424b4.htm", or null. */
  document: string | null;
}

const hitSchema = z.object({
  _id: z.string().optional(),
  _source: z.object({
    ciks: z.array(z.string()).min(1),
    adsh: z.string(),
    form: z.string(),
    file_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    display_names: z.array(z.string()).default([]),
  }),
});
const answerSchema = z.object({ hits: z.object({ hits: z.array(z.unknown()) }) });

/** "AIRBNB, INC.  (ABNB)  (CIK 0001559720)" -> name and ticker. */
export function splitDisplayName(display: string): { companyName: string; ticker: string | null } {
  const ticker = /\(([A-Z][A-Z0-9.\-]{0,9})(?:,\s*[A-Z][A-Z0-9.\-]{0,9})*\)/.exec(display.replace(/\(CIK \d+\)/, ''))?.[1] ?? null;
  const companyName = display.replace(/\s*\(CIK \d+\)\s*/, ' ').replace(/\s*\([A-Z][A-Z0-9.,\s\-]*\)\s*/, ' ').replace(/\s+/g, ' ').trim();
  return { companyName, ticker };
}

/** The hits of a full-text search answer, one per accession (the first hit of each), in answer order. Throws naming the problem on another document. */
export function parseFullTextSearch(text: string): FullTextSearchHit[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`the full-text search answer is not JSON: ${(error as Error).message}`);
  }
  const answer = answerSchema.safeParse(json);
  if (!answer.success) throw new Error('the full-text search answer has no hits.hits array');
  const seen = new Set<string>();
  const hits: FullTextSearchHit[] = [];
  answer.data.hits.hits.forEach((raw, index) => {
    const parsed = hitSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`full-text search hit ${index + 1}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`);
    }
    const source = parsed.data._source;
    const accession = normalizeAccession(source.adsh);
    if (seen.has(accession)) return;
    seen.add(accession);
    const displayName = (source.display_names[0] ?? '').trim();
    const { companyName, ticker } = splitDisplayName(displayName);
    const id = parsed.data._id ?? '';
    const document = id.includes(':') ? id.slice(id.indexOf(':') + 1) || null : null;
    hits.push({ cik: normalizeCik(source.ciks[0]), accession, form: source.form, fileDate: source.file_date, displayName, companyName, ticker, document });
  });
  return hits;
}

/** The forms that carry a lock-up: final prospectuses and the registration statements they complete. */
export const PROSPECTUS_FORMS = ['424B4', 'S-1', 'S-1/A', 'F-1', 'F-1/A'] as const;

/** The 424B4 and S-1 (and /A, F-1) rows of a daily form index, in index order. */
export function prospectusRows(indexText: string, forms: readonly string[] = PROSPECTUS_FORMS): FormIndexRow[] {
  const wanted = new Set(forms.map((f) => f.toUpperCase()));
  return parseFormIndex(indexText).filter((row) => wanted.has(row.formType.toUpperCase()));
}

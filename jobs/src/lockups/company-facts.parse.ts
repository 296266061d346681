import { z } from 'zod';

// Shares outstanding from the SEC's XBRL company facts (data.sec.gov/api/xbrl/companyfacts/CIK##########.json):
// `facts.dei.EntityCommonStockSharesOutstanding.units.shares[]`, each `{ end, val, accn, fy, fp, form, filed, frame? }`,
// the cover-page count of a 10-K/10-Q as of `end`. A company with several classes reports one fact per
// class with the same `end` and `accn` (summed here). Recorded sample: data/ (Snowflake, dei only).

export interface SharesOutstanding {
  /** Digits. */
  shares: string;
  /** YYYY-MM-DD: the date the count is as of. */
  asOf: string;
  /** YYYY-MM-DD: when the report carrying it was filed. */
  filed: string;
  accession: string;
  form: string;
  /** How many facts (classes) were summed. */
  classes: number;
}

const fact = z.object({
  end: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  val: z.union([z.number(), z.string().regex(/^\d+(?:\.0+)?$/)]),
  accn: z.string(),
  form: z.string().optional().default(''),
  filed: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
const document = z.object({
  cik: z.union([z.number(), z.string()]).optional(),
  entityName: z.string().optional(),
  facts: z.object({
    dei: z
      .object({
        EntityCommonStockSharesOutstanding: z.object({ units: z.object({ shares: z.array(z.unknown()) }).partial() }).optional(),
      })
      .optional(),
  }),
});

function integer(value: number | string): bigint | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : null;
  return BigInt(value.replace(/\.0+$/, ''));
}

/**
 * The latest shares outstanding: the most recently filed report's facts with the latest `end` (one per
 * class, summed). Null when the company reports none (a new filer, a fund). Throws naming the problem
 * on a document that is not company facts.
 */
export function parseSharesOutstanding(text: string): SharesOutstanding | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`the company facts document is not JSON: ${(error as Error).message}`);
  }
  const parsed = document.safeParse(json);
  if (!parsed.success) throw new Error(`the company facts document has an unexpected shape: ${parsed.error.issues[0]?.path.join('.') || '(root)'}: ${parsed.error.issues[0]?.message}`);
  const rows = parsed.data.facts.dei?.EntityCommonStockSharesOutstanding?.units.shares ?? [];
  const facts = rows.flatMap((row) => {
    const ok = fact.safeParse(row);
    if (!ok.success) return [];
    const value = integer(ok.data.val);
    return value === null ? [] : [{ ...ok.data, value }];
  });
  if (!facts.length) return null;
  const latest = facts.reduce((best, f) => (f.filed > best.filed || (f.filed === best.filed && f.end > best.end) ? f : best));
  const same = facts.filter((f) => f.accn === latest.accn && f.end === latest.end);
  const total = same.reduce((sum, f) => sum + f.value, 0n);
  return { shares: total.toString(), asOf: latest.end, filed: latest.filed, accession: latest.accn, form: latest.form, classes: same.length };
}

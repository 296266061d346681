import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';

/** The market types the seed and the price sources know. */
export const MARKET_TYPES = ['crypto', 'stock', 'etf', 'index', 'forex', 'futures', 'commodity'] as const;

export const marketSearchQuerySchema = z
  .object({
    q: z.string().trim().max(50).optional(),
    type: z.enum(MARKET_TYPES).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  })
  .strict();

export interface MarketView {
  id: number;
  symbol: string;
  name: string;
  type: string;
  description: string | null;
}

/** Escapes LIKE wildcards so a query is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Symbol prefix or name substring, case-insensitive. Ranked: exact symbol, then symbol prefix,
 * then name; shorter symbols first within a rank. Index symbols (^GSPC) also match without the caret.
 */
export async function searchMarkets(dataSource: DataSource, query: z.infer<typeof marketSearchQuerySchema>): Promise<MarketView[]> {
  const q = query.q ? query.q : null;
  const rows: MarketView[] = await dataSource.query(
    `SELECT id, symbol, name, type, description
       FROM markets
      WHERE ($1::text IS NULL
             OR upper(symbol) LIKE upper($2) || '%'
             OR ltrim(upper(symbol), '^') LIKE upper($2) || '%'
             OR name ILIKE '%' || $2 || '%')
        AND ($3::text IS NULL OR type = $3)
      ORDER BY CASE
                 WHEN upper(symbol) = upper($1) OR ltrim(upper(symbol), '^') = upper($1) THEN 0
                 WHEN upper(symbol) LIKE upper($2) || '%' OR ltrim(upper(symbol), '^') LIKE upper($2) || '%' THEN 1
                 ELSE 2
               END,
               length(symbol), symbol
      LIMIT $4`,
    [q, q === null ? null : likeLiteral(q), query.type ?? null, query.limit],
  );
  return rows;
}

/** GET /api/markets?q=&type=&limit= (public): search the markets reference table. */
export function marketsRoutes(deps: { dataSource: DataSource }): Router {
  const router = Router();
  router.get('/markets', async (req, res) => {
    const query = marketSearchQuerySchema.parse(req.query);
    res.json({ markets: await searchMarkets(deps.dataSource, query) });
  });
  return router;
}

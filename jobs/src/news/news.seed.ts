import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import { setMarketCiks } from './news.store';

/** The SEC's ticker → CIK list as published (company_tickers.json), its first 300 entries (data/README.md). */
export const SEC_COMPANY_TICKERS_PATH = join(__dirname, 'data', 'sec_company_tickers_first300.json');

const companyTickers = z.record(z.string(), z.object({ cik_str: z.number().int().positive(), ticker: z.string().min(1), title: z.string() }));

/** Ticker → 10-digit CIK from a company_tickers.json document (EDGAR writes tickers like BRK-B with a dash). */
export function readCompanyTickers(json: string): { ticker: string; cik: string }[] {
  return Object.values(companyTickers.parse(JSON.parse(json))).map((entry) => ({
    ticker: entry.ticker.toUpperCase(),
    cik: String(entry.cik_str).padStart(10, '0'),
  }));
}

/** Gives the seeded US stocks and ETFs their CIK (only markets that exist and have none). */
export function seedMarketCiks(manager: EntityManager, path = SEC_COMPANY_TICKERS_PATH): Promise<number> {
  return setMarketCiks(manager, readCompanyTickers(readFileSync(path, 'utf8')));
}

import type { DataSource, EntityManager } from 'typeorm';
import { BUNDLED_EXCHANGE_CALENDARS_PATH, readExchangeCalendarFile } from '../market-hours/market-hours.import';
import { importExchangeCalendars } from '../market-hours/market-hours.store';
import { seedCotSample } from '../cot/cot.seed';
import { seedMarketCiks } from '../news/news.seed';
import { seedWhaleLabels } from '../whales/whales-labels';
import { CHAT_ROOM_SEED, MARKET_SEED } from './markets.seed';

export interface Seed {
  /** Recorded in seed_history once applied; never rename one that has shipped. */
  name: string;
  run(manager: EntityManager): Promise<void>;
}

/** Demo data, applied once each, in order. Later features append their seeds here. */
export const SEEDS: Seed[] = [
  {
    name: '2026-11-markets',
    async run(manager) {
      for (const m of MARKET_SEED) {
        await manager.query(
          `INSERT INTO markets (symbol, name, type, description) VALUES ($1, $2, $3, $4)
           ON CONFLICT (symbol) DO NOTHING`,
          [m.symbol, m.name, m.type, m.description],
        );
      }
    },
  },
  {
    name: '2026-11-chat-rooms',
    async run(manager) {
      for (const room of CHAT_ROOM_SEED) {
        await manager.query(
          `INSERT INTO chat_rooms (name, type, description, trading_pair)
           SELECT $1::varchar, $2::varchar, $3::text, $4::varchar
           WHERE NOT EXISTS (SELECT 1 FROM chat_rooms WHERE name = $1)`,
          [room.name, room.type, room.description, room.tradingPair],
        );
      }
    },
  },
  {
    name: '2026-11-market-hours',
    run: (manager) => importExchangeCalendars(manager, readExchangeCalendarFile(BUNDLED_EXCHANGE_CALENDARS_PATH)).then(() => undefined),
  },
  { name: '2026-11-cot-sample', run: (manager) => seedCotSample(manager).then(() => undefined) },
  {
    // The exchange whose session gates stock polling. NYSE Arca (SPY, GLD) trades NYSE hours: XNYS.
    name: '2026-11-market-exchanges',
    async run(manager) {
      const exchanges: Record<string, string[]> = {
        XNAS: ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'TSLA', 'QQQ'],
        XNYS: ['JPM', 'SPY', 'GLD'],
      };
      for (const [exchangeId, symbols] of Object.entries(exchanges)) {
        await manager.query('UPDATE markets SET exchange_id = $1 WHERE symbol = ANY($2::varchar[]) AND exchange_id IS NULL', [exchangeId, symbols]);
      }
    },
  },
  // The CIK of each seeded US stock and ETF, from the SEC's ticker list: filings find their market by it.
  { name: '2026-11-market-ciks', run: (manager) => seedMarketCiks(manager).then(() => undefined) },
  // Public exchange and fund wallet labels (jobs/src/whales/data/labels/README.md): whale_addresses.
  { name: '2026-12-whale-labels', run: (manager) => seedWhaleLabels(manager).then(() => undefined) },
  // The same lists with 14 more exchanges' files (issue 14): an idempotent upsert, so a database
  // seeded with the first set gets the new rows (and its past transfers reclassified) once.
  { name: '2027-01-whale-labels-more', run: (manager) => seedWhaleLabels(manager).then(() => undefined) },
];

/**
 * Applies every seed not yet in seed_history, each in its own transaction with its history row,
 * so a crash mid-way never leaves a seed half-applied or applied twice.
 */
export async function runSeeds(dataSource: DataSource, seeds: Seed[] = SEEDS): Promise<string[]> {
  const applied: string[] = [];
  for (const seed of seeds) {
    const done = await dataSource.transaction(async (manager) => {
      // Serialises concurrent seeders (two `npm start`s at once).
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`seed:${seed.name}`]);
      const rows: unknown[] = await manager.query('SELECT 1 FROM seed_history WHERE name = $1', [seed.name]);
      if (rows.length) return false;
      await seed.run(manager);
      await manager.query('INSERT INTO seed_history (name, applied_at) VALUES ($1, now())', [seed.name]);
      return true;
    });
    if (done) applied.push(seed.name);
  }
  return applied;
}

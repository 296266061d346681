import type { DataSource, EntityManager } from 'typeorm';

type Db = DataSource | EntityManager;

/**
 * Which addresses of a block may be watched, answered in memory: every whale_addresses row (the
 * labelled list and every address a user watches: a watch always has its whale_addresses row) as a
 * 64-bit fingerprint (hex digits 1–16 of the address) in an open-addressing table of Uint32 pairs,
 * about 16 MB for 1,000,000 addresses. A block's ~2,000 addresses are filtered here, and only the
 * hits (a handful) are read from the database, which stays the authority on labels, thresholds
 * and watches. The filter is a superset: a deleted or deactivated row stays a (harmless) hit until
 * the process restarts, and a fingerprint collision (odds ~n/2^64) is only a needless lookup.
 *
 * Kept current by the rows' ids, used as a version counter: each use first reads the rows with an
 * id above the highest one loaded (one primary-key range query, empty in the steady state). That
 * is exact because inserts into whale_addresses are serialised by migration WhalesWatchedIndex (a
 * statement trigger takes a transaction-scoped advisory lock before the ids are drawn), so ids
 * become visible in order: once id N is seen, no lower id can commit later. Ids going backwards
 * (a table emptied with RESTART IDENTITY, in tests) rebuild the filter from scratch.
 */
/** Rows read per query while catching up (the first build reads the table in chunks of this size). */
const REFRESH_CHUNK = 50_000;

export class WatchedAddressIndex {
  private table: Uint32Array;
  private mask: number;
  private count = 0;
  private maxId = 0;

  constructor(capacity = 1024) {
    let size = 1024;
    while (size < capacity * 2) size *= 2;
    this.table = new Uint32Array(size * 2);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count;
  }

  /** The highest whale_addresses id loaded. */
  get loadedThrough(): number {
    return this.maxId;
  }

  /** Adds a lowercase 0x-address (idempotent). */
  add(address: string): void {
    const hi = fingerprintHigh(address);
    const lo = fingerprintLow(address);
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    if (this.insert(hi, lo)) this.count++;
  }

  /** True when the address may be in whale_addresses (never false for one that is). */
  has(address: string): boolean {
    const hi = fingerprintHigh(address);
    const lo = fingerprintLow(address);
    const table = this.table;
    let slot = mix(hi, lo) & this.mask;
    for (;;) {
      const h = table[slot * 2];
      const l = table[slot * 2 + 1];
      if (h === 0 && l === 0) return false;
      if (h === hi && l === lo) return true;
      slot = (slot + 1) & this.mask;
    }
  }

  /** The addresses of `addresses` that may be watched or labelled, lowercase and distinct. */
  filter(addresses: Iterable<string | null>): string[] {
    const hits = new Set<string>();
    for (const address of addresses) {
      if (address === null) continue;
      const lower = address.toLowerCase();
      if (this.has(lower)) hits.add(lower);
    }
    return [...hits];
  }

  /**
   * Brings the filter up to date with whale_addresses: the rows added since the last call, read in
   * id order by chunks (the first build reads the whole table without holding it in memory at once).
   */
  async refresh(db: Db): Promise<void> {
    for (;;) {
      const rows: Array<{ id: number | null; address: string | null; top: number | null }> = await db.query(
        `SELECT id, address, NULL::int AS top FROM (SELECT id, address FROM whale_addresses WHERE id > $1 ORDER BY id LIMIT $2) r
         UNION ALL SELECT NULL, NULL, (SELECT max(id) FROM whale_addresses)`,
        [this.maxId, REFRESH_CHUNK],
      );
      let top: number | null = null;
      let read = 0;
      for (const row of rows) {
        if (row.id === null || row.address === null) {
          top = row.top;
          continue;
        }
        read++;
        this.add(row.address);
        if (row.id > this.maxId) this.maxId = row.id;
      }
      if (top !== null && top < this.maxId) {
        // Ids went backwards (emptied with RESTART IDENTITY): start afresh.
        this.reset();
        continue;
      }
      if (read < REFRESH_CHUNK) return;
    }
  }

  private reset(): void {
    this.table = new Uint32Array(2048);
    this.mask = 1023;
    this.count = 0;
    this.maxId = 0;
  }

  private insert(hi: number, lo: number): boolean {
    const table = this.table;
    let slot = mix(hi, lo) & this.mask;
    for (;;) {
      const h = table[slot * 2];
      const l = table[slot * 2 + 1];
      if (h === hi && l === lo) return false;
      if (h === 0 && l === 0) {
        table[slot * 2] = hi;
        table[slot * 2 + 1] = lo;
        return true;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    this.mask = old.length - 1;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0 || old[i + 1] !== 0) this.insert(old[i], old[i + 1]);
  }
}

// Hex digits 1–8 and 9–16 of the address (after 0x). The all-zero fingerprint (an empty slot) is
// moved to 1: the zero address and any other sharing it are still found (a superset).
const fingerprintHigh = (address: string) => parseInt(address.slice(2, 10), 16) >>> 0;
const fingerprintLow = (address: string) => parseInt(address.slice(10, 18), 16) >>> 0 || 1;
const mix = (hi: number, lo: number) => Math.imul(hi ^ Math.imul(lo, 0x9e3779b1), 0x85ebca6b) >>> 0;

// One filter per process and data source (tests run several "processes" against several databases).
const indexes = new WeakMap<DataSource, { index: WatchedAddressIndex; refreshing: Promise<void> }>();

/**
 * The process's filter for this data source, brought up to date: built on first use (one read of
 * whale_addresses), then one primary-key range query per call. Concurrent callers share a refresh.
 */
export async function watchedAddressIndex(dataSource: DataSource): Promise<WatchedAddressIndex> {
  let entry = indexes.get(dataSource);
  if (!entry) {
    entry = { index: new WatchedAddressIndex(), refreshing: Promise.resolve() };
    indexes.set(dataSource, entry);
  }
  const current = entry;
  const run = current.refreshing.catch(() => undefined).then(() => current.index.refresh(dataSource));
  current.refreshing = run;
  await run;
  return current.index;
}

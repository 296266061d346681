import { readFileSync, readdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { DataSource, EntityManager } from 'typeorm';
import { getAddress } from 'viem';
import { z } from 'zod';
import { recomputeNetflows } from './whales-netflow.store';

type Db = DataSource | EntityManager;

/**
 * Address labels (whale_addresses): the seeded public list (data/labels, origin in its README) and
 * files given to `npm run cli -- whales import-labels <file>`.
 *
 * File format, CSV (a header row) or JSON (an array of objects), one address per row:
 *   address            required; EIP-55 checksummed or lowercase 0x + 40 hex; stored lowercase
 *   label              optional; up to 100 characters ("Binance 14")
 *   address_type       optional; exchange | fund | whale | bridge | protocol | other
 *   exchange_name      optional; up to 100 characters, groups an exchange's wallets for netflow ("Binance")
 *   balance_threshold  optional; integer in wei: a native ETH transfer of at least this much to or
 *                      from the address is a whale transfer
 *   is_active          optional; true | false (default true for a new address)
 * JSON keys may also be camelCase (addressType, exchangeName, balanceThreshold, isActive).
 * A column left out of the file keeps what is stored; an empty cell clears it.
 * Every row is checked first: any error (reported with its line, CSV line numbers counting the
 * header as line 1, JSON rows numbered from 1) and nothing is written.
 */

export const WHALE_ADDRESS_TYPES = ['exchange', 'fund', 'whale', 'bridge', 'protocol', 'other'] as const;

export interface WhaleLabelRow {
  address: string;
  label?: string | null;
  addressType?: (typeof WHALE_ADDRESS_TYPES)[number] | null;
  exchangeName?: string | null;
  /** Wei, integer string. */
  balanceThreshold?: string | null;
  isActive?: boolean;
}

export class WhaleLabelsError extends Error {
  constructor(
    readonly file: string,
    readonly errors: string[],
  ) {
    super(`${file}: ${errors.length} invalid row${errors.length === 1 ? '' : 's'} (nothing imported):\n${errors.map((e) => `  ${e}`).join('\n')}`);
    this.name = 'WhaleLabelsError';
  }
}

/** An address as the API and the label files accept it: lowercase, or mixed case with a valid EIP-55 checksum. Answers it lowercase, or null. */
export function normalizeAddress(input: string): string | null {
  const value = input.trim();
  if (/^0x[0-9a-f]{40}$/.test(value)) return value;
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return null;
  // Mixed (or all upper) case must be the checksummed form: a typo then shows as a bad checksum.
  return getAddress(value.toLowerCase()) === value ? value.toLowerCase() : null;
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `at most ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

const rowSchema = z.object({
  address: z.string({ error: 'required' }).transform((v, ctx) => {
    const address = normalizeAddress(v);
    if (address === null) {
      ctx.addIssue({ code: 'custom', message: 'expected an EIP-55 checksummed or lowercase 0x + 40 hex address' });
      return z.NEVER;
    }
    return address;
  }),
  label: optionalText(100),
  address_type: z
    .string()
    .trim()
    .transform((v) => (v === '' ? null : v.toLowerCase()))
    .pipe(z.enum(WHALE_ADDRESS_TYPES, { error: `one of ${WHALE_ADDRESS_TYPES.join(', ')}` }).nullable())
    .nullable()
    .optional(),
  exchange_name: optionalText(100),
  balance_threshold: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => v === '' || /^\d{1,78}$/.test(v), 'expected a non-negative integer (wei)')
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  is_active: z
    .union([z.boolean(), z.enum(['true', 'false', ''])])
    .transform((v) => (v === '' ? undefined : v === true || v === 'true'))
    .optional(),
});

const CAMEL: Record<string, string> = { addressType: 'address_type', exchangeName: 'exchange_name', balanceThreshold: 'balance_threshold', isActive: 'is_active' };
const KNOWN = new Set(['address', 'label', 'address_type', 'exchange_name', 'balance_threshold', 'is_active']);

function toRow(raw: Record<string, unknown>, where: string, errors: string[]): WhaleLabelRow | null {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const name = CAMEL[key] ?? key.trim().toLowerCase();
    if (!KNOWN.has(name)) {
      errors.push(`${where}: unknown column ${JSON.stringify(key)}`);
      return null;
    }
    input[name] = value;
  }
  const parsed = rowSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors.push(`${where}: ${issue.path.join('.') || 'row'}: ${issue.message}`);
    return null;
  }
  const r = parsed.data;
  const row: WhaleLabelRow = { address: r.address };
  if (r.label !== undefined) row.label = r.label;
  if (r.address_type !== undefined) row.addressType = r.address_type;
  if (r.exchange_name !== undefined) row.exchangeName = r.exchange_name;
  if (r.balance_threshold !== undefined) row.balanceThreshold = r.balance_threshold;
  if (r.is_active !== undefined) row.isActive = r.is_active;
  return row;
}

/** Parses and checks a label file (CSV or JSON, by content: JSON starts with `[`). Throws WhaleLabelsError listing every bad row. */
export function parseLabelFile(file: string, text: string): WhaleLabelRow[] {
  const errors: string[] = [];
  const rows: WhaleLabelRow[] = [];
  const body = text.replace(/^\uFEFF/, '');
  if (body.trimStart().startsWith('[') || extname(file).toLowerCase() === '.json') {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch (error) {
      throw new WhaleLabelsError(file, [`not JSON (${(error as Error).message})`]);
    }
    if (!Array.isArray(doc)) throw new WhaleLabelsError(file, ['expected a JSON array of objects']);
    doc.forEach((item, i) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) errors.push(`row ${i + 1}: expected an object`);
      else {
        const row = toRow(item as Record<string, unknown>, `row ${i + 1}`, errors);
        if (row) rows.push(row);
      }
    });
  } else {
    let records: Record<string, string>[];
    try {
      records = parseCsv(body, { columns: true, skip_empty_lines: true, trim: true, relax_column_count: false });
    } catch (error) {
      throw new WhaleLabelsError(file, [`not CSV (${(error as Error).message})`]);
    }
    if (!records.length) throw new WhaleLabelsError(file, ['no rows (a header row then one row per address)']);
    records.forEach((record, i) => {
      const row = toRow(record, `line ${i + 2}`, errors);
      if (row) rows.push(row);
    });
  }
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    if (seen.has(row.address)) errors.push(`${row.address}: listed twice (rows ${seen.get(row.address)! + 1} and ${i + 1})`);
    else seen.set(row.address, i);
  });
  if (errors.length) throw new WhaleLabelsError(file, errors);
  return rows;
}

/** Rows per upsert statement (arrays unnested): a file of 100,000 addresses is 20 round trips, not 100,000. */
const UPSERT_CHUNK = 5000;

/**
 * Upserts label rows by address (one transaction is the caller's: importWhaleLabels and the seed
 * run this in one). New addresses get `addedBy`; existing ones keep theirs (a user's watched address
 * gains the public label). Columns a row leaves out keep their stored value. Returns inserted and
 * updated counts.
 */
export async function upsertWhaleLabels(
  manager: Db,
  rows: readonly WhaleLabelRow[],
  opts: { source: string; addedBy?: string },
): Promise<{ inserted: number; updated: number }> {
  let inserted = 0;
  let updated = 0;
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    const chunk = rows.slice(i, i + UPSERT_CHUNK);
    const params = [
      chunk.map((r) => r.address),
      chunk.map((r) => r.label ?? null),
      chunk.map((r) => r.addressType ?? null),
      chunk.map((r) => r.exchangeName ?? null),
      chunk.map((r) => r.balanceThreshold ?? null),
      chunk.map((r) => r.isActive ?? null),
    ];
    const unnest = `unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::numeric[], $6::boolean[])
                      AS u(address, label, address_type, exchange_name, balance_threshold, is_active)`;
    // New addresses first. A conflicting row being inserted by another transaction (a user's new
    // watch) is waited for, so the update below, a new statement with a new snapshot, sees it.
    const added: Array<{ address: string }> = await manager.query(
      `INSERT INTO whale_addresses (address, label, address_type, exchange_name, balance_threshold, is_active, added_by, label_source)
       SELECT u.address, u.label, u.address_type, u.exchange_name, u.balance_threshold, COALESCE(u.is_active, true), $7, $8 FROM ${unnest}
       ON CONFLICT (address) DO NOTHING
       RETURNING address`,
      [...params, opts.addedBy ?? 'system', opts.source.slice(0, 200)],
    );
    const fresh = new Set(added.map((r) => r.address));
    const rest = chunk.filter((r) => !fresh.has(r.address));
    inserted += fresh.size;
    if (!rest.length) continue;
    // Then the addresses already known: only the columns the file has (a flag per column and row).
    const [, count]: [unknown, number] = await manager.query(
      `UPDATE whale_addresses w SET
         label = CASE WHEN u.has_label THEN u.label ELSE w.label END,
         address_type = CASE WHEN u.has_type THEN u.address_type ELSE w.address_type END,
         exchange_name = CASE WHEN u.has_exchange THEN u.exchange_name ELSE w.exchange_name END,
         balance_threshold = CASE WHEN u.has_threshold THEN u.balance_threshold ELSE w.balance_threshold END,
         is_active = COALESCE(u.is_active, w.is_active),
         label_source = $7,
         updated_at = now()
       FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::numeric[], $6::boolean[],
                   $8::boolean[], $9::boolean[], $10::boolean[], $11::boolean[])
            AS u(address, label, address_type, exchange_name, balance_threshold, is_active, has_label, has_type, has_exchange, has_threshold)
       WHERE w.address = u.address`,
      [
        rest.map((r) => r.address),
        rest.map((r) => r.label ?? null),
        rest.map((r) => r.addressType ?? null),
        rest.map((r) => r.exchangeName ?? null),
        rest.map((r) => r.balanceThreshold ?? null),
        rest.map((r) => r.isActive ?? null),
        opts.source.slice(0, 200),
        rest.map((r) => r.label !== undefined),
        rest.map((r) => r.addressType !== undefined),
        rest.map((r) => r.exchangeName !== undefined),
        rest.map((r) => r.balanceThreshold !== undefined),
      ],
    );
    updated += count;
  }
  return { inserted, updated };
}

/** What a label import changed in the recorded history (importWhaleLabels). */
export interface WhaleLabelsImported {
  inserted: number;
  updated: number;
  /** Addresses whose exchange membership (an active 'exchange' row, and its exchange_name) changed. */
  relabelled: number;
  /** Recorded transfers whose transaction_type changed (transfer, exchange_inflow, exchange_outflow). */
  reclassified: number;
  /** Hour buckets of whale_netflows rebuilt (with their days). */
  netflowHours: number;
}

/**
 * A label import, in the caller's transaction: upserts the rows (one set per origin, each with its
 * label_source), then makes the recorded history follow the new labels. For every address whose
 * exchange membership changed (it became or stopped being an active 'exchange' row, or moved to
 * another exchange_name), its recorded transfers are classified again as the scanner does
 * (classifyTransfer: inflow to an exchange from elsewhere, outflow from one to elsewhere, else a
 * plain transfer; mints and burns keep their type), and the whale_netflows hour and day buckets
 * holding any of its transfers are rebuilt (recomputeNetflows). Whether a transfer is a whale
 * transfer (is_whale) and the alerts already written are left as they were: a new
 * balance_threshold applies from the next scanned block.
 *
 * Label imports are serialised (an advisory lock). A block the scanner records while an import
 * runs was classified with the labels it read before the import committed: its netflow buckets
 * are recomputed with the labels of its own commit, but its transfers' types may be the old ones
 * until the next import of those addresses.
 */
export async function importWhaleLabels(
  manager: EntityManager,
  sets: readonly WhaleLabelSet[],
  opts: { addedBy?: string } = {},
): Promise<WhaleLabelsImported> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext('whale_addresses:labels'))`);
  const addresses = [...new Set(sets.flatMap((s) => s.rows.map((r) => r.address)))];
  const before = await exchangeMembership(manager, addresses);
  let inserted = 0;
  let updated = 0;
  for (const set of sets) {
    const done = await upsertWhaleLabels(manager, set.rows, { source: set.source, addedBy: opts.addedBy });
    inserted += done.inserted;
    updated += done.updated;
  }
  const after = await exchangeMembership(manager, addresses);
  const changed = addresses.filter((a) => (before.get(a) ?? null) !== (after.get(a) ?? null));
  if (!changed.length) return { inserted, updated, relabelled: 0, reclassified: 0, netflowHours: 0 };
  const { reclassified, netflowHours } = await reclassifyTransfersOf(manager, changed);
  return { inserted, updated, relabelled: changed.length, reclassified, netflowHours };
}

/** address -> the exchange_name its transfers count for (active 'exchange' rows only; '' when unnamed, which classifies but has no netflow). */
async function exchangeMembership(manager: Db, addresses: readonly string[]): Promise<Map<string, string>> {
  const members = new Map<string, string>();
  for (let i = 0; i < addresses.length; i += UPSERT_CHUNK) {
    const rows: Array<{ address: string; exchange_name: string | null }> = await manager.query(
      `SELECT address, exchange_name FROM whale_addresses WHERE is_active AND address_type = 'exchange' AND address = ANY($1::varchar[])`,
      [addresses.slice(i, i + UPSERT_CHUNK)],
    );
    for (const r of rows) members.set(r.address, r.exchange_name ?? '');
  }
  return members;
}

/**
 * Classifies again the recorded transfers (every chain) from or to `addresses` with the labels as
 * stored now, and rebuilds the netflow buckets holding them. The rule is classifyTransfer's
 * (whales-detect.ts), in SQL.
 */
export async function reclassifyTransfersOf(manager: Db, addresses: readonly string[]): Promise<{ reclassified: number; netflowHours: number }> {
  const [, reclassified]: [unknown, number] = await manager.query(
    `WITH t AS (
       SELECT t.id, CASE
                WHEN te.id IS NOT NULL AND fe.id IS NULL THEN 'exchange_inflow'
                WHEN fe.id IS NOT NULL AND te.id IS NULL THEN 'exchange_outflow'
                ELSE 'transfer' END AS kind
         FROM whale_transactions t
         LEFT JOIN whale_addresses fe ON fe.address = t.from_address AND fe.is_active AND fe.address_type = 'exchange'
         LEFT JOIN whale_addresses te ON te.address = t.to_address AND te.is_active AND te.address_type = 'exchange'
        WHERE (t.from_address = ANY($1::varchar[]) OR t.to_address = ANY($1::varchar[]))
          AND COALESCE(t.transaction_type, 'transfer') IN ('transfer', 'exchange_inflow', 'exchange_outflow')
     )
     UPDATE whale_transactions w SET transaction_type = t.kind
       FROM t WHERE w.id = t.id AND COALESCE(w.transaction_type, 'transfer') <> t.kind`,
    [addresses],
  );
  // Every hour holding a transfer of these addresses: the netflow reads exchange names, not only types.
  const hours: Array<{ chain: string; hour: Date }> = await manager.query(
    `SELECT DISTINCT chain, to_timestamp(floor(extract(epoch FROM timestamp) / 3600) * 3600) AS hour
       FROM whale_transactions WHERE from_address = ANY($1::varchar[]) OR to_address = ANY($1::varchar[])
      ORDER BY chain, hour`,
    [addresses],
  );
  const byChain = new Map<string, Date[]>();
  for (const h of hours) {
    const list = byChain.get(h.chain) ?? [];
    list.push(new Date(h.hour));
    byChain.set(h.chain, list);
  }
  for (const [chain, times] of byChain) await recomputeNetflows(manager, chain, times);
  return { reclassified, netflowHours: hours.length };
}

// ---------------------------------------------------------------------------------------------
// The seeded list (data/labels, see its README).

export const WHALE_LABELS_DIR = join(__dirname, 'data', 'labels');

const ACCOUNTS_2023 = '37bde48dde2729b8ffed1d7801328242391700df';
const ACCOUNTS_2023_B = 'f3d0203b4edd0a9e5e9888ea659321e15a636b2d';
const DATA_ETHERSCAN = '1ed02d58f3acba454ced18cf80e0df4f18900789';

/**
 * Files of brianleect/etherscan-labels (MIT) kept here: the exchange their wallets belong to, the
 * tag prefix of its wallets, and where in the repository the file is (folder and commit).
 */
const ETHERSCAN_LABEL_FILES: Record<string, { exchange: string; prefix: string; commit: string; folder?: string }> = {
  'binance.csv': { exchange: 'Binance', prefix: 'Binance', commit: ACCOUNTS_2023 },
  'coinbase.csv': { exchange: 'Coinbase', prefix: 'Coinbase', commit: ACCOUNTS_2023_B },
  'kraken.csv': { exchange: 'Kraken', prefix: 'Kraken', commit: ACCOUNTS_2023_B },
  'bitstamp.csv': { exchange: 'Bitstamp', prefix: 'Bitstamp', commit: ACCOUNTS_2023 },
  'bittrex.csv': { exchange: 'Bittrex', prefix: 'Bittrex', commit: ACCOUNTS_2023 },
  'gemini.csv': { exchange: 'Gemini', prefix: 'Gemini', commit: ACCOUNTS_2023 },
  'bitfinex.json': { exchange: 'Bitfinex', prefix: 'Bitfinex', commit: ACCOUNTS_2023 },
  'crypto-com.json': { exchange: 'Crypto.com', prefix: 'Crypto.com', commit: ACCOUNTS_2023_B },
  'huobi.json': { exchange: 'Huobi', prefix: 'Huobi', commit: ACCOUNTS_2023 },
  'okx.csv': { exchange: 'OKX', prefix: 'OKX', commit: DATA_ETHERSCAN, folder: 'data/etherscan/accounts' },
  'kucoin.csv': { exchange: 'KuCoin', prefix: 'KuCoin', commit: DATA_ETHERSCAN, folder: 'data/etherscan/accounts' },
  'gate-io.csv': { exchange: 'Gate.io', prefix: 'Gate.io', commit: ACCOUNTS_2023_B },
  'bithumb.csv': { exchange: 'Bithumb', prefix: 'Bithumb', commit: ACCOUNTS_2023_B },
  'poloniex.csv': { exchange: 'Poloniex', prefix: 'Poloniex', commit: ACCOUNTS_2023_B },
  'upbit.csv': { exchange: 'Upbit', prefix: 'Upbit', commit: ACCOUNTS_2023_B },
  'korbit.json': { exchange: 'Korbit', prefix: 'Korbit', commit: ACCOUNTS_2023_B },
  'paribu.json': { exchange: 'Paribu', prefix: 'Paribu', commit: ACCOUNTS_2023_B },
  'hitbtc.json': { exchange: 'HitBTC', prefix: 'HitBTC', commit: ACCOUNTS_2023 },
  'hotbit.csv': { exchange: 'Hotbit', prefix: 'Hotbit', commit: ACCOUNTS_2023_B },
  // "FTX Exchange", "FTX Exchange 2": the exchange's wallets; "FTX US" is another company.
  'ftx.csv': { exchange: 'FTX', prefix: 'FTX Exchange', commit: ACCOUNTS_2023_B },
  'deribit.csv': { exchange: 'Deribit', prefix: 'Deribit', commit: ACCOUNTS_2023 },
  'bitmex.csv': { exchange: 'BitMEX', prefix: 'BitMEX', commit: ACCOUNTS_2023 },
};
const COMPANY_FUNDS = { file: 'company-funds.json', commit: 'e94f3b7b75208d0307c32cd395d9d6483be531e8' };

/**
 * Which tags of an exchange's file are its wallets: the plain and numbered ones ("Binance",
 * "Binance 14", "Huobi 12"), hot, cold and multisig wallets, deposit funders, old addresses and
 * "Miscellaneous". Token contracts, deployers, fee collectors, charity and other entities listed
 * in the same file ("Tether: USDT Stablecoin" in Bitfinex's, "Huobi Token", "OKX: OKB Token") are
 * left out: a transfer to a token contract is not an exchange inflow. The prefix matches in any
 * case (KuCoin's file spells one wallet "Kucoin 7").
 */
export function isExchangeWalletTag(tag: string, prefix: string): boolean {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}( \\d+)?$|^${escaped}: (Hot Wallet|Cold Wallet|MultiSig|Deposit Funder|Old Address|Miscellaneous)( \\d+)?$`, 'i').test(tag);
}

/** Label rows of one origin: `source` goes to whale_addresses.label_source ("import:<file>", or the seeded file and commit). */
export interface WhaleLabelSet {
  source: string;
  rows: readonly WhaleLabelRow[];
}

/** The seeded rows, per origin file, from data/labels. */
export function seedWhaleLabelSets(dir = WHALE_LABELS_DIR): WhaleLabelSet[] {
  const sets: WhaleLabelSet[] = [];
  const etherscan = join(dir, 'etherscan-labels');
  for (const file of readdirSync(etherscan).sort()) {
    const meta = ETHERSCAN_LABEL_FILES[file];
    if (!meta) continue;
    const text = readFileSync(join(etherscan, file), 'utf8');
    const tags: [string, string][] = file.endsWith('.json')
      ? Object.entries(JSON.parse(text) as Record<string, string>)
      : (parseCsv(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[]).map((r) => [r.Address, r['Name Tag']]);
    sets.push({
      source: `brianleect/etherscan-labels@${meta.commit.slice(0, 12)}:${meta.folder ?? 'accounts'}/${basename(file)}`,
      rows: tags
        .filter(([, tag]) => isExchangeWalletTag(tag, meta.prefix))
        .map(([address, tag]) => ({ address: address.toLowerCase(), label: tag.slice(0, 100), addressType: 'exchange' as const, exchangeName: meta.exchange })),
    });
  }
  const funds = JSON.parse(readFileSync(join(dir, 'eth-labels', COMPANY_FUNDS.file), 'utf8')) as { address: string; nameTag: string }[];
  sets.push({
    source: `dawsbot/eth-labels@${COMPANY_FUNDS.commit.slice(0, 12)}:data/Etherscan/${COMPANY_FUNDS.file}`,
    rows: funds.map((f) => ({ address: f.address.toLowerCase(), label: f.nameTag.slice(0, 100), addressType: 'fund' as const, exchangeName: null })),
  });
  return sets;
}

/**
 * The seed (jobs/src/seeds/seeds.ts): the public exchange and fund labels, upserted ('system'), with
 * any transfers already recorded of those addresses classified again (importWhaleLabels).
 */
export async function seedWhaleLabels(manager: EntityManager): Promise<WhaleLabelsImported> {
  return importWhaleLabels(manager, seedWhaleLabelSets(), { addedBy: 'system' });
}

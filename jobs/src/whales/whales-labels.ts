import { readFileSync, readdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { DataSource, EntityManager } from 'typeorm';
import { getAddress } from 'viem';
import { z } from 'zod';

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

/**
 * Upserts label rows by address (one transaction is the caller's: the CLI and the seed run this in
 * one). New addresses get `addedBy`; existing ones keep theirs (a user's watched address gains the
 * public label). Columns a row leaves out keep their stored value. Returns inserted and updated counts.
 */
export async function upsertWhaleLabels(
  manager: Db,
  rows: readonly WhaleLabelRow[],
  opts: { source: string; addedBy?: string },
): Promise<{ inserted: number; updated: number }> {
  let inserted = 0;
  let updated = 0;
  for (const row of rows) {
    const result: Array<{ inserted: boolean }> = await manager.query(
      `INSERT INTO whale_addresses (address, label, address_type, exchange_name, balance_threshold, is_active, added_by, label_source)
       VALUES ($1, $2, $3, $4, $5, COALESCE($6, true), $7, $8)
       ON CONFLICT (address) DO UPDATE SET
         label = CASE WHEN $9 THEN EXCLUDED.label ELSE whale_addresses.label END,
         address_type = CASE WHEN $10 THEN EXCLUDED.address_type ELSE whale_addresses.address_type END,
         exchange_name = CASE WHEN $11 THEN EXCLUDED.exchange_name ELSE whale_addresses.exchange_name END,
         balance_threshold = CASE WHEN $12 THEN EXCLUDED.balance_threshold ELSE whale_addresses.balance_threshold END,
         is_active = COALESCE($6, whale_addresses.is_active),
         label_source = EXCLUDED.label_source,
         updated_at = now()
       RETURNING (xmax = 0) AS inserted`,
      [
        row.address,
        row.label ?? null,
        row.addressType ?? null,
        row.exchangeName ?? null,
        row.balanceThreshold ?? null,
        row.isActive ?? null,
        opts.addedBy ?? 'system',
        opts.source.slice(0, 200),
        row.label !== undefined,
        row.addressType !== undefined,
        row.exchangeName !== undefined,
        row.balanceThreshold !== undefined,
      ],
    );
    if (result[0]?.inserted) inserted++;
    else updated++;
  }
  return { inserted, updated };
}

// ---------------------------------------------------------------------------------------------
// The seeded list (data/labels, see its README).

export const WHALE_LABELS_DIR = join(__dirname, 'data', 'labels');

/** Files of brianleect/etherscan-labels (MIT) kept here, with the exchange their wallets belong to and the commit they come from. */
const ETHERSCAN_LABEL_FILES: Record<string, { exchange: string; prefix: string; commit: string }> = {
  'binance.csv': { exchange: 'Binance', prefix: 'Binance', commit: '37bde48dde2729b8ffed1d7801328242391700df' },
  'coinbase.csv': { exchange: 'Coinbase', prefix: 'Coinbase', commit: 'f3d0203b4edd0a9e5e9888ea659321e15a636b2d' },
  'kraken.csv': { exchange: 'Kraken', prefix: 'Kraken', commit: 'f3d0203b4edd0a9e5e9888ea659321e15a636b2d' },
  'bitstamp.csv': { exchange: 'Bitstamp', prefix: 'Bitstamp', commit: '37bde48dde2729b8ffed1d7801328242391700df' },
  'bittrex.csv': { exchange: 'Bittrex', prefix: 'Bittrex', commit: '37bde48dde2729b8ffed1d7801328242391700df' },
  'gemini.csv': { exchange: 'Gemini', prefix: 'Gemini', commit: '37bde48dde2729b8ffed1d7801328242391700df' },
  'bitfinex.json': { exchange: 'Bitfinex', prefix: 'Bitfinex', commit: '37bde48dde2729b8ffed1d7801328242391700df' },
  'crypto-com.json': { exchange: 'Crypto.com', prefix: 'Crypto.com', commit: 'f3d0203b4edd0a9e5e9888ea659321e15a636b2d' },
};
const COMPANY_FUNDS = { file: 'company-funds.json', commit: 'e94f3b7b75208d0307c32cd395d9d6483be531e8' };

/**
 * Which tags of an exchange's file are its wallets: the plain and numbered ones ("Binance",
 * "Binance 14"), hot, cold and multisig wallets, deposit funders, old addresses and
 * "Miscellaneous". Token contracts, deployers, fee collectors, charity and other entities listed
 * in the same file ("Tether: USDT Stablecoin" in Bitfinex's) are left out: a transfer to a token
 * contract is not an exchange inflow.
 */
export function isExchangeWalletTag(tag: string, prefix: string): boolean {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}( \\d+)?$|^${escaped}: (Hot Wallet|Cold Wallet|MultiSig|Deposit Funder|Old Address|Miscellaneous)( \\d+)?$`).test(tag);
}

export interface SeedLabelSet {
  source: string;
  rows: WhaleLabelRow[];
}

/** The seeded rows, per origin file, from data/labels. */
export function seedWhaleLabelSets(dir = WHALE_LABELS_DIR): SeedLabelSet[] {
  const sets: SeedLabelSet[] = [];
  const etherscan = join(dir, 'etherscan-labels');
  for (const file of readdirSync(etherscan).sort()) {
    const meta = ETHERSCAN_LABEL_FILES[file];
    if (!meta) continue;
    const text = readFileSync(join(etherscan, file), 'utf8');
    const tags: [string, string][] = file.endsWith('.json')
      ? Object.entries(JSON.parse(text) as Record<string, string>)
      : (parseCsv(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[]).map((r) => [r.Address, r['Name Tag']]);
    sets.push({
      source: `brianleect/etherscan-labels@${meta.commit.slice(0, 12)}:accounts/${basename(file)}`,
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

/** The seed (jobs/src/seeds/seeds.ts): the public exchange and fund labels, upserted ('system'). */
export async function seedWhaleLabels(manager: Db): Promise<{ inserted: number; updated: number }> {
  let inserted = 0;
  let updated = 0;
  for (const set of seedWhaleLabelSets()) {
    const done = await upsertWhaleLabels(manager, set.rows, { source: set.source, addedBy: 'system' });
    inserted += done.inserted;
    updated += done.updated;
  }
  return { inserted, updated };
}

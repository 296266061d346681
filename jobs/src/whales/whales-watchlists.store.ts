import type { DataSource, EntityManager } from 'typeorm';
import { isAddress } from 'viem';
import type { Entitlements } from '../billing/entitlements';
import type { WhaleAlertFrequency, WhaleWatchView } from './whales.shapes';
import { WHALES_CHAIN } from './whales.store';

type Db = DataSource | EntityManager;

export const WHALE_CUSTOM_LABEL_MAX = 100;
/** numeric(24,2): 22 integer digits. */
export const WHALE_THRESHOLD_MAX = '9999999999999999999999.99';

/**
 * An address as the API accepts it: lowercase 0x + 40 hex, or mixed case only when it is a valid
 * EIP-55 checksum (a mistyped checksummed address is refused, not silently lowercased).
 */
export function isWhaleAddress(value: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
  if (value === value.toLowerCase()) return true;
  return isAddress(value, { strict: true });
}

/** An IANA time zone the runtime knows (Intl), e.g. Europe/Paris or UTC. */
export function isIanaTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export type WhaleWatchErrorCode = 'not_found' | 'duplicate';

/**
 * A refused watchlist change (the api maps the code to 404 / 409). How many addresses a user may
 * watch is their plan's (billing's entitlements, `whaleWatches`: EntitlementError).
 */
export class WhaleWatchError extends Error {
  constructor(
    readonly code: WhaleWatchErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface WhaleWatchFields {
  customLabel: string | null;
  alertEnabled: boolean;
  /** USD decimal string; null = the global threshold. */
  alertThreshold: string | null;
  alertFrequency: WhaleAlertFrequency;
  timeZone: string;
}

const WATCH_COLUMNS = `w.id, a.address, a.label, a.address_type, a.exchange_name, w.custom_label, w.alert_enabled, w.alert_threshold::text AS alert_threshold,
  w.alert_frequency, w.time_zone, w.created_at, w.last_alert_at`;

function toView(r: Record<string, unknown>): WhaleWatchView {
  const customLabel = r.custom_label as string | null;
  return {
    id: Number(r.id),
    address: r.address as string,
    label: {
      address: r.address as string,
      label: r.label as string | null,
      addressType: r.address_type as string | null,
      exchangeName: r.exchange_name as string | null,
      customLabel,
    },
    customLabel,
    alertEnabled: r.alert_enabled as boolean,
    alertThreshold: r.alert_threshold as string | null,
    alertFrequency: r.alert_frequency as WhaleAlertFrequency,
    timeZone: r.time_zone as string,
    createdAt: (r.created_at as Date).toISOString(),
    lastAlertAt: r.last_alert_at ? (r.last_alert_at as Date).toISOString() : null,
  };
}

/** The user's watches, newest first. */
export async function listWhaleWatches(db: Db, userId: number): Promise<WhaleWatchView[]> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${WATCH_COLUMNS} FROM user_watchlists w JOIN whale_addresses a ON a.id = w.address_id WHERE w.user_id = $1 ORDER BY w.created_at DESC, w.id DESC`,
    [userId],
  );
  return rows.map(toView);
}

/** One of the user's watches (null when it is not theirs or does not exist). */
export async function getWhaleWatch(db: Db, userId: number, id: number): Promise<WhaleWatchView | null> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${WATCH_COLUMNS} FROM user_watchlists w JOIN whale_addresses a ON a.id = w.address_id WHERE w.user_id = $1 AND w.id = $2`,
    [userId, id],
  );
  return rows.length ? toView(rows[0]) : null;
}

/** The user's watch of an address (lowercase), or null. */
export async function whaleWatchOfAddress(db: Db, userId: number, address: string): Promise<WhaleWatchView | null> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${WATCH_COLUMNS} FROM user_watchlists w JOIN whale_addresses a ON a.id = w.address_id WHERE w.user_id = $1 AND a.address = $2`,
    [userId, address.toLowerCase()],
  );
  return rows.length ? toView(rows[0]) : null;
}

/**
 * Watches an address: creates its whale_addresses row when it is new (added_by 'user', no public
 * label) and the user's watch. One watch per user and address (duplicate), as many as the plan
 * allows (`whaleWatches`; a read-only account watches nothing new): EntitlementError.
 */
export async function createWhaleWatch(
  dataSource: DataSource,
  userId: number,
  address: string,
  fields: WhaleWatchFields,
  access: { entitlements: Entitlements; now: Date },
): Promise<WhaleWatchView> {
  const lower = address.toLowerCase();
  const id = await dataSource.transaction(async (manager) => {
    // Serialises one user's creations, so two requests cannot both pass the limit.
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('whales:watches'), $1)`, [userId]);
    const [{ count }]: Array<{ count: number }> = await manager.query(`SELECT count(*)::int AS count FROM user_watchlists WHERE user_id = $1`, [userId]);
    await manager.query(
      `INSERT INTO whale_addresses (address, chain, label, added_by) VALUES ($1, $2, NULL, 'user') ON CONFLICT (address) DO NOTHING`,
      [lower, WHALES_CHAIN],
    );
    const [{ id: addressId }]: Array<{ id: number }> = await manager.query(`SELECT id FROM whale_addresses WHERE address = $1`, [lower]);
    const existing: unknown[] = await manager.query(`SELECT 1 FROM user_watchlists WHERE user_id = $1 AND address_id = $2`, [userId, addressId]);
    if (existing.length) throw new WhaleWatchError('duplicate', 'You already watch this address', { address: lower });
    await access.entitlements.checkLimit(manager, userId, 'whaleWatches', count, access.now);
    const rows: Array<{ id: number }> = await manager.query(
      `INSERT INTO user_watchlists (user_id, address_id, custom_label, alert_enabled, alert_threshold, alert_frequency, time_zone)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, address_id) DO NOTHING RETURNING id`,
      [userId, addressId, fields.customLabel, fields.alertEnabled, fields.alertThreshold, fields.alertFrequency, fields.timeZone],
    );
    if (!rows.length) throw new WhaleWatchError('duplicate', 'You already watch this address', { address: lower });
    return Number(rows[0].id);
  });
  return (await getWhaleWatch(dataSource, userId, id)) as WhaleWatchView;
}

/** Changes the given fields of one of the user's watches. */
export async function updateWhaleWatch(db: Db, userId: number, id: number, patch: Partial<WhaleWatchFields>): Promise<WhaleWatchView> {
  const columns: Record<keyof WhaleWatchFields, string> = {
    customLabel: 'custom_label',
    alertEnabled: 'alert_enabled',
    alertThreshold: 'alert_threshold',
    alertFrequency: 'alert_frequency',
    timeZone: 'time_zone',
  };
  const sets: string[] = [];
  const values: unknown[] = [userId, id];
  for (const key of Object.keys(columns) as (keyof WhaleWatchFields)[]) {
    if (patch[key] === undefined) continue;
    values.push(patch[key]);
    sets.push(`${columns[key]} = $${values.length}`);
  }
  const [rows]: [unknown[], number] = await db.query(
    `UPDATE user_watchlists SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE user_id = $1 AND id = $2 RETURNING id`,
    values,
  );
  if (!rows.length) throw new WhaleWatchError('not_found', 'No such watch');
  return (await getWhaleWatch(db, userId, id)) as WhaleWatchView;
}

/** Stops watching (the address row stays: reference data, and its transfers keep their labels). */
export async function deleteWhaleWatch(db: Db, userId: number, id: number): Promise<void> {
  // UPDATE and DELETE answer [rows, count] through TypeORM.
  const [rows]: [unknown[], number] = await db.query(`DELETE FROM user_watchlists WHERE user_id = $1 AND id = $2 RETURNING id`, [userId, id]);
  if (!rows.length) throw new WhaleWatchError('not_found', 'No such watch');
}

import type { DataSource, EntityManager } from 'typeorm';
import { writeNotifications, type NotificationRequest, type WrittenNotification } from '../notifications/notify';
import { importanceOf } from '../notifications/notification-content';
import type { WhaleAlertFrequency } from './whales.shapes';
import { watchedAddressIndex } from './whales-watched-index';

type Db = DataSource | EntityManager;

/** notifications.activity_type of every whale notification (no whale kind in the spec's list: a producer's own kind, as insiders' INSIDER_TRADE). */
export const WHALE_ACTIVITY_TYPE = 'WHALE_TRANSFER';

/** Dedupe key of the correction sent when a reorg removes an alerted transfer: once per alert. */
export const whaleRetractionDedupeKey = (alertId: number) => `whales:retraction:${alertId}`;
/** Dedupe key of an immediate alert's notification. */
export const whaleAlertDedupeKey = (alertId: number) => `whales:alert:${alertId}`;
/** Dedupe key of a digest's notification. */
export const whaleDigestDedupeKey = (digestKey: string) => `whales:digest:${digestKey}`;

/**
 * Called by rollbackFrom (whales.store.ts) inside the rollback's transaction, before the orphaned
 * blocks' rows are deleted: alerts of blocks >= fromBlock that were not sent yet (waiting for a
 * digest) are deleted; sent ones become 'retracted' and their users get one correction
 * notification each (dedupe key per alert, so a repeated rollback writes none twice). The rows
 * are written here (the user's list has them with the rollback's commit); the processor publishes
 * them to the open streams after the commit (dispatchWhaleRetractions).
 *
 * The whale_blocks rows are locked first: a whales.alerts job holds its block's row FOR SHARE while it
 * writes, so either it finished (and its alerts are seen here) or it runs after the commit and finds
 * its block gone.
 */
export async function retractWhaleAlerts(manager: EntityManager, chain: string, fromBlock: bigint | number | string): Promise<void> {
  const from = String(fromBlock);
  await manager.query(`SELECT 1 FROM whale_blocks WHERE chain = $1 AND number >= $2 ORDER BY number FOR UPDATE`, [chain, from]);
  await manager.query(`DELETE FROM whale_alerts WHERE chain = $1 AND block_number >= $2 AND status = 'pending'`, [chain, from]);
  // UPDATE answers [rows, count] through TypeORM.
  const [retracted]: [RetractedAlert[], number] = await manager.query(
    `UPDATE whale_alerts SET status = 'retracted' WHERE chain = $1 AND block_number >= $2 AND status = 'sent'
     RETURNING id, user_id, tx_hash, message`,
    [chain, from],
  );
  if (!retracted.length) return;
  await writeNotifications(manager, retracted.map(retractionRequest), { now: new Date() });
}

interface RetractedAlert {
  id: number;
  user_id: number;
  tx_hash: string;
  message: string;
}

function retractionRequest(alert: RetractedAlert): NotificationRequest {
  // What the alert said, without its direction (" · exchange inflow"; " — … https://…" in alerts written before the short form).
  const what = alert.message.split(/ · | — /)[0];
  return {
    recipients: [alert.user_id],
    dedupeKey: whaleRetractionDedupeKey(alert.id),
    channels: { push: null, email: null, telegram: null },
    content: {
      title: 'Whale alert withdrawn: the transfer was removed by a chain reorganisation',
      message: `Correction: the transfer ${what} (transaction ${alert.tx_hash}) was removed by a chain reorganisation; disregard the earlier alert.`.slice(0, 2000),
      type: 'warning',
      activityType: WHALE_ACTIVITY_TYPE,
      details: {
        kind: 'whale_retraction',
        alertId: alert.id,
        txHash: alert.tx_hash,
        link: { href: `https://etherscan.io/tx/${alert.tx_hash}`, label: 'View the transaction on Etherscan' },
        importance: importanceOf('warning'),
      },
    },
  };
}

/**
 * The correction notifications of alerts retracted from `fromBlock` on (written by retractWhaleAlerts),
 * read back for dispatch after the rollback committed.
 */
export async function retractionNotifications(manager: Db, chain: string, fromBlock: number): Promise<WrittenNotification[]> {
  const rows: RetractedAlert[] = await manager.query(
    `SELECT id, user_id, tx_hash, message FROM whale_alerts WHERE chain = $1 AND block_number >= $2 AND status = 'retracted'`,
    [chain, String(fromBlock)],
  );
  if (!rows.length) return [];
  return writeNotifications(manager, rows.map(retractionRequest), { now: new Date(), existing: 'include' });
}

/** A transfer of a block that a user's enabled watch alerts on (threshold met). */
export interface WhaleAlertCandidate {
  transactionId: string;
  txHash: string;
  /** -1 for native ETH. */
  logIndex: number;
  blockNumber: string;
  token: string | null;
  tokenSymbol: string | null;
  amount: string | null;
  usdValue: string | null;
  transactionType: string;
  from: string;
  to: string | null;
  watchId: number;
  userId: number;
  addressId: number;
  address: string;
  customLabel: string | null;
  frequency: WhaleAlertFrequency;
}

/**
 * Locks the block's whale_blocks row (FOR SHARE, see retractWhaleAlerts) and answers the block's
 * transfers that alert a watch: from or to is watched by a live user with alerts on, and
 * - the watch has a USD threshold: usd_value >= it (an unpriced transfer never alerts against a USD threshold);
 * - no threshold of its own: usd_value >= the global USD threshold, or, unpriced, the transfer is a
 *   whale transfer by the labelled address's token balance threshold (is_whale, no USD guessed).
 * Null when the block is no longer recorded (a reorg removed it).
 */
export async function lockBlockAlertCandidates(
  manager: EntityManager,
  chain: string,
  blockHash: string,
  globalUsdThreshold: number,
  /** The block's addresses the scanner's in-memory filter holds; absent: read from the block's rows and filtered here. */
  filtered?: readonly string[],
): Promise<WhaleAlertCandidate[] | null> {
  const block: unknown[] = await manager.query(`SELECT 1 FROM whale_blocks WHERE chain = $1 AND hash = $2 FOR SHARE`, [chain, blockHash.toLowerCase()]);
  if (!block.length) return null;
  // The block's addresses that may be watched, from the process's in-memory filter (whales-watched-index.ts):
  // the candidates are then read for those few only, not joined for every transfer of the block.
  // The scanner hands over its own hits (reading the block's 2,000 addresses again took 3 ms); a
  // watch of an address new to whale_addresses made between the scan and this job (milliseconds)
  // applies from the next block.
  const hits = filtered ? [...filtered] : await blockAddressesInFilter(manager, chain, blockHash);
  if (!hits.length) return [];
  // The watches of those addresses first (a few index probes), then the block's transfers that touch them.
  const rows: Array<Record<string, unknown>> = await manager.query(
    `WITH watched AS MATERIALIZED (
       SELECT a.id AS address_id, a.address, w.id AS watch_id, w.user_id, w.custom_label, w.alert_frequency, w.alert_threshold
       FROM whale_addresses a
       JOIN user_watchlists w ON w.address_id = a.id AND w.alert_enabled
       JOIN users u ON u.id = w.user_id AND u.deleted_at IS NULL
       WHERE a.address = ANY($4::varchar[])
     )
     SELECT t.id::text AS transaction_id, t.hash, t.log_index, t.block_number::text AS block_number, t.token_address,
            COALESCE(k.symbol, NULLIF(t.token_symbol, '')) AS token_symbol, t.amount::text AS amount, t.usd_value::text AS usd_value,
            COALESCE(t.transaction_type, 'transfer') AS transaction_type, t.from_address, t.to_address,
            x.watch_id, x.user_id, x.address_id, x.address, x.custom_label, x.alert_frequency
     FROM (
       -- The block's transfers touching a hit, read once; then two equality joins (hashable) rather
       -- than one on "from OR to", a self-transfer once.
       WITH moved AS MATERIALIZED (
         SELECT t.id, t.from_address, t.to_address FROM whale_transactions t
         WHERE t.chain = $1 AND t.block_hash = $2 AND (t.from_address = ANY($4::varchar[]) OR t.to_address = ANY($4::varchar[]))
       )
       SELECT m.id, x.address FROM moved m JOIN watched x ON x.address = m.from_address
       UNION ALL
       SELECT m.id, x.address FROM moved m JOIN watched x ON x.address = m.to_address WHERE m.to_address IS DISTINCT FROM m.from_address
     ) m
     JOIN whale_transactions t ON t.id = m.id
     JOIN watched x ON x.address = m.address
     LEFT JOIN whale_tokens k ON k.address = t.token_address
     WHERE CASE WHEN x.alert_threshold IS NOT NULL THEN t.usd_value IS NOT NULL AND t.usd_value >= x.alert_threshold
                WHEN t.usd_value IS NOT NULL THEN t.usd_value >= $3
                ELSE t.is_whale END
     ORDER BY t.log_index, x.user_id, x.address_id`,
    [chain, blockHash.toLowerCase(), globalUsdThreshold, hits],
  );
  return rows.map((r) => ({
    transactionId: r.transaction_id as string,
    txHash: r.hash as string,
    logIndex: Number(r.log_index),
    blockNumber: r.block_number as string,
    token: r.token_address as string | null,
    tokenSymbol: r.token_address === null ? 'ETH' : (r.token_symbol as string | null),
    amount: r.amount as string | null,
    usdValue: r.usd_value as string | null,
    transactionType: r.transaction_type as string,
    from: r.from_address as string,
    to: r.to_address as string | null,
    watchId: Number(r.watch_id),
    userId: Number(r.user_id),
    addressId: Number(r.address_id),
    address: r.address as string,
    customLabel: r.custom_label as string | null,
    frequency: r.alert_frequency as WhaleAlertFrequency,
  }));
}

/** The block's senders and receivers that the in-memory filter holds (one row of two arrays: cheaper than a row per transfer). */
async function blockAddressesInFilter(manager: EntityManager, chain: string, blockHash: string): Promise<string[]> {
  const [{ froms, tos }]: Array<{ froms: string[] | null; tos: Array<string | null> | null }> = await manager.query(
    `SELECT array_agg(from_address) AS froms, array_agg(to_address) AS tos FROM whale_transactions WHERE chain = $1 AND block_hash = $2`,
    [chain, blockHash.toLowerCase()],
  );
  const watched = await watchedAddressIndex(manager.connection);
  return watched.filter([...(froms ?? []), ...(tos ?? [])]);
}

/** Public labels of addresses (whale_addresses), by lowercase address. */
export async function addressLabels(db: Db, addresses: readonly string[]): Promise<Map<string, { label: string | null; addressType: string | null; exchangeName: string | null }>> {
  if (!addresses.length) return new Map();
  const rows: Array<{ address: string; label: string | null; address_type: string | null; exchange_name: string | null }> = await db.query(
    `SELECT address, label, address_type, exchange_name FROM whale_addresses WHERE address = ANY($1)`,
    [[...new Set(addresses.map((a) => a.toLowerCase()))]],
  );
  return new Map(rows.map((r) => [r.address, { label: r.label, addressType: r.address_type, exchangeName: r.exchange_name }]));
}

export interface WhaleAlertInsert {
  candidate: WhaleAlertCandidate;
  chain: string;
  alertType: string;
  direction: string;
  message: string;
}

export interface InsertedWhaleAlert {
  id: number;
  userId: number;
  watchId: number;
  frequency: WhaleAlertFrequency;
  insert: WhaleAlertInsert;
}

/** Writes the alerts, each at most once per (user, address, tx hash, log index) while not retracted; answers those this call wrote. */
export async function insertWhaleAlerts(manager: EntityManager, inserts: readonly WhaleAlertInsert[], now: Date): Promise<InsertedWhaleAlert[]> {
  if (!inserts.length) return [];
  const rows: Array<{ id: number; user_id: number; address_id: number; tx_hash: string; log_index: number }> = await manager.query(
    `INSERT INTO whale_alerts (user_id, address_id, transaction_id, alert_type, message, is_read, sent_at, chain, status, frequency, tx_hash, log_index, block_number, usd_value, direction)
     SELECT * FROM unnest($1::int[], $2::int[], $3::bigint[], $4::varchar[], $5::text[], $6::boolean[], $7::timestamptz[], $8::varchar[], $9::varchar[],
                          $10::varchar[], $11::varchar[], $12::int[], $13::bigint[], $14::numeric[], $15::varchar[])
     ON CONFLICT (user_id, address_id, tx_hash, log_index) WHERE status <> 'retracted' DO NOTHING
     RETURNING id, user_id, address_id, tx_hash, log_index`,
    [
      inserts.map((i) => i.candidate.userId),
      inserts.map((i) => i.candidate.addressId),
      inserts.map((i) => i.candidate.transactionId),
      inserts.map((i) => i.alertType),
      inserts.map((i) => i.message),
      inserts.map(() => false),
      inserts.map(() => now),
      inserts.map((i) => i.chain),
      inserts.map(() => 'pending'),
      inserts.map((i) => i.candidate.frequency),
      inserts.map((i) => i.candidate.txHash),
      inserts.map((i) => i.candidate.logIndex),
      inserts.map((i) => i.candidate.blockNumber),
      inserts.map((i) => i.candidate.usdValue),
      inserts.map((i) => i.direction),
    ],
  );
  const byKey = new Map(inserts.map((i) => [`${i.candidate.userId}|${i.candidate.addressId}|${i.candidate.txHash}|${i.candidate.logIndex}`, i]));
  const inserted = rows.map((r) => {
    const insert = byKey.get(`${r.user_id}|${r.address_id}|${r.tx_hash}|${r.log_index}`) as WhaleAlertInsert;
    return { id: Number(r.id), userId: Number(r.user_id), watchId: insert.candidate.watchId, frequency: insert.candidate.frequency, insert };
  });
  const watches = [...new Set(inserted.map((i) => i.watchId))];
  if (watches.length) await manager.query(`UPDATE user_watchlists SET last_alert_at = $2 WHERE id = ANY($1)`, [watches, now]);
  return inserted;
}

/** Marks alerts delivered (immediately, or by the digest `digestKey`). */
export async function markWhaleAlertsSent(manager: EntityManager, ids: readonly number[], now: Date, digestKey: string | null = null): Promise<void> {
  if (!ids.length) return;
  await manager.query(`UPDATE whale_alerts SET status = 'sent', delivered_at = $2, digest_key = $3 WHERE id = ANY($1) AND status = 'pending'`, [ids, now, digestKey]);
}

/** A pending alert waiting for its digest, with the time zone of its watch (UTC when the watch is gone). */
export interface PendingWhaleAlert {
  id: number;
  userId: number;
  frequency: 'hourly' | 'daily';
  message: string;
  txHash: string;
  usdValue: string | null;
  createdAt: Date;
  timeZone: string;
}

/** Pending digest alerts written before `before` of live users, oldest first. */
export async function pendingDigestAlerts(db: Db, before: Date): Promise<PendingWhaleAlert[]> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT al.id, al.user_id, al.frequency, al.message, al.tx_hash, al.usd_value::text AS usd_value, al.sent_at, COALESCE(w.time_zone, 'UTC') AS time_zone
     FROM whale_alerts al
     JOIN users u ON u.id = al.user_id AND u.deleted_at IS NULL
     LEFT JOIN user_watchlists w ON w.user_id = al.user_id AND w.address_id = al.address_id
     WHERE al.status = 'pending' AND al.frequency IN ('hourly', 'daily') AND al.sent_at < $1
     ORDER BY al.sent_at, al.id`,
    [before],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    userId: Number(r.user_id),
    frequency: r.frequency as 'hourly' | 'daily',
    message: r.message as string,
    txHash: r.tx_hash as string,
    usdValue: r.usd_value as string | null,
    createdAt: r.sent_at as Date,
    timeZone: r.time_zone as string,
  }));
}

/** Claims pending alerts for a digest (rows another run claimed first are skipped); answers the ids claimed. */
export async function claimDigestAlerts(manager: EntityManager, ids: readonly number[], digestKey: string, now: Date): Promise<number[]> {
  if (!ids.length) return [];
  const [rows]: [Array<{ id: number }>, number] = await manager.query(
    `UPDATE whale_alerts SET status = 'sent', delivered_at = $2, digest_key = $3 WHERE id = ANY($1) AND status = 'pending' RETURNING id`,
    [ids, now, digestKey],
  );
  return rows.map((r) => Number(r.id));
}

/** A user's alerts (newest first), for tests and the API. */
export async function whaleAlertsOfUser(
  db: Db,
  userId: number,
): Promise<Array<{ id: number; status: string; frequency: string; txHash: string; logIndex: number; message: string; digestKey: string | null; deliveredAt: Date | null }>> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT id, status, frequency, tx_hash, log_index, message, digest_key, delivered_at FROM whale_alerts WHERE user_id = $1 ORDER BY id DESC`,
    [userId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    status: r.status as string,
    frequency: r.frequency as string,
    txHash: r.tx_hash as string,
    logIndex: Number(r.log_index),
    message: r.message as string,
    digestKey: r.digest_key as string | null,
    deliveredAt: r.delivered_at as Date | null,
  }));
}

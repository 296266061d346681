import type { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';

/**
 * Delivery receipts: a producer that records where its notification went (a yield alert's log
 * has `email_sent` and `telegram_sent`) hands the channel a receipt; the delivery job sets that
 * column true after a successful send. The targets are an allowlist of (table, id column,
 * boolean column): a job's payload names a target by key, never a table, so no payload can make
 * a job write anywhere else.
 *
 * A receipt already set means the message was sent: the delivery job then sends nothing (a
 * re-run of a finished job, or the same receipt queued twice, does not message the user twice).
 */
export const DELIVERY_RECEIPT_TARGETS = {
  'yield_alert_logs.email_sent': { table: 'yield_alert_logs', idColumn: 'id', column: 'email_sent' },
  'yield_alert_logs.telegram_sent': { table: 'yield_alert_logs', idColumn: 'id', column: 'telegram_sent' },
} as const satisfies Record<string, { table: string; idColumn: string; column: string }>;

export type DeliveryReceiptTarget = keyof typeof DELIVERY_RECEIPT_TARGETS;

export const DELIVERY_RECEIPT_TARGET_NAMES = Object.keys(DELIVERY_RECEIPT_TARGETS) as [DeliveryReceiptTarget, ...DeliveryReceiptTarget[]];

export const deliveryReceiptSchema = z
  .object({
    target: z.enum(DELIVERY_RECEIPT_TARGET_NAMES),
    id: z.number().int().positive(),
  })
  .strict();

/** Which row's flag a delivery sets once it has sent: `{ target: 'yield_alert_logs.telegram_sent', id: log.id }`. */
export type DeliveryReceipt = z.infer<typeof deliveryReceiptSchema>;

type Db = DataSource | EntityManager;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function targetOf(receipt: DeliveryReceipt) {
  const target = DELIVERY_RECEIPT_TARGETS[receipt.target];
  // The keys are code constants; checked anyway, as every SQL identifier built from a name is.
  if (!target || ![target.table, target.idColumn, target.column].every((name) => IDENTIFIER.test(name))) {
    throw new Error(`not a delivery receipt target: ${String(receipt.target)}`);
  }
  return target;
}

/** Whether the receipt's flag is set (the message went out). A missing row counts as not delivered. */
export async function isDelivered(db: Db, receipt: DeliveryReceipt): Promise<boolean> {
  const { table, idColumn, column } = targetOf(receipt);
  const rows: { delivered: boolean }[] = await db.query(`SELECT ${column} AS delivered FROM ${table} WHERE ${idColumn} = $1`, [receipt.id]);
  return rows[0]?.delivered === true;
}

/**
 * Sets the receipt's flag true (idempotent). Answers true when this call set it, false when it was
 * set already or the row is gone (its alert was deleted meanwhile).
 */
export async function setDeliveryReceipt(db: Db, receipt: DeliveryReceipt): Promise<boolean> {
  const { table, idColumn, column } = targetOf(receipt);
  const [, updated]: [unknown, number] = await db.query(`UPDATE ${table} SET ${column} = true WHERE ${idColumn} = $1 AND ${column} IS NOT TRUE`, [receipt.id]);
  return updated > 0;
}

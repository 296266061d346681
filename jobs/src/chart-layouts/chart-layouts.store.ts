import type { DataSource, EntityManager } from 'typeorm';
import type { ChartLayoutBody } from './chart-layout-shape';
import type { ChartLayoutSummary, ChartLayoutView } from './chart-layouts.shapes';

/** Every query of chart layouts (chart_layouts). */

type Db = DataSource | EntityManager;

export type { ChartLayoutSummary, ChartLayoutView } from './chart-layouts.shapes';

interface LayoutRow {
  id: number;
  name: string;
  is_default: boolean;
  layout: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const toView = (r: LayoutRow): ChartLayoutView => ({
  id: r.id,
  name: r.name,
  isDefault: r.is_default,
  layout: r.layout,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

const COLUMNS = 'id, name, is_default, layout, created_at, updated_at';

/**
 * Serialises the changes of one user's layouts: the count checked against the limit and the
 * "unset the old default, set the new" pair. Without it, two concurrent "make default" calls each
 * find no other default to unset and the second insert into the partial unique index fails.
 */
export async function lockChartLayoutsOwner(manager: EntityManager, userId: number): Promise<void> {
  await manager.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
}

export async function unsetOtherDefaultLayouts(manager: EntityManager, userId: number, keepId: number): Promise<void> {
  await manager.query('UPDATE chart_layouts SET is_default = false, updated_at = now() WHERE user_id = $1 AND is_default AND id <> $2', [userId, keepId]);
}

/** The user's layouts by name, without their bodies. */
export async function listChartLayouts(db: Db, userId: number): Promise<ChartLayoutSummary[]> {
  const rows: (Omit<LayoutRow, 'layout'> & { symbol: string | null; interval: string | null })[] = await db.query(
    `SELECT id, name, is_default, layout->>'symbol' AS symbol, layout->>'interval' AS interval, created_at, updated_at
       FROM chart_layouts WHERE user_id = $1 ORDER BY lower(name), id`,
    [userId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    isDefault: r.is_default,
    symbol: r.symbol,
    interval: r.interval,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  }));
}

/** One of the user's layouts, or null (also for another user's). */
export async function getChartLayout(db: Db, userId: number, id: number): Promise<ChartLayoutView | null> {
  const [row]: LayoutRow[] = await db.query(`SELECT ${COLUMNS} FROM chart_layouts WHERE id = $1 AND user_id = $2`, [id, userId]);
  return row ? toView(row) : null;
}

/** The user's default layout, or null when none is marked. */
export async function getDefaultChartLayout(db: Db, userId: number): Promise<ChartLayoutView | null> {
  const [row]: LayoutRow[] = await db.query(`SELECT ${COLUMNS} FROM chart_layouts WHERE user_id = $1 AND is_default`, [userId]);
  return row ? toView(row) : null;
}

export async function countChartLayouts(manager: EntityManager, userId: number): Promise<number> {
  const [{ count }]: { count: number }[] = await manager.query('SELECT count(*)::int AS count FROM chart_layouts WHERE user_id = $1', [userId]);
  return count;
}

export async function insertChartLayoutRow(manager: EntityManager, userId: number, input: { name: string; layout: ChartLayoutBody; isDefault: boolean }): Promise<number> {
  const [row]: { id: number }[] = await manager.query(
    'INSERT INTO chart_layouts (user_id, name, layout, is_default) VALUES ($1, $2, $3::jsonb, $4) RETURNING id',
    [userId, input.name, JSON.stringify(input.layout), input.isDefault],
  );
  return row.id;
}

export async function chartLayoutExists(manager: EntityManager, userId: number, id: number): Promise<boolean> {
  const rows: { id: number }[] = await manager.query('SELECT id FROM chart_layouts WHERE id = $1 AND user_id = $2', [id, userId]);
  return rows.length > 0;
}

/** Sets what is given (undefined keeps the stored value). */
export async function updateChartLayoutRow(
  manager: EntityManager,
  userId: number,
  id: number,
  changes: { name?: string; layout?: ChartLayoutBody; isDefault?: boolean },
): Promise<void> {
  await manager.query(
    `UPDATE chart_layouts
        SET name = COALESCE($3, name),
            layout = COALESCE($4::jsonb, layout),
            is_default = COALESCE($5, is_default),
            updated_at = now()
      WHERE id = $1 AND user_id = $2`,
    [id, userId, changes.name ?? null, changes.layout === undefined ? null : JSON.stringify(changes.layout), changes.isDefault ?? null],
  );
}

/** Deletes one of the user's layouts (false: no such layout). */
export async function deleteChartLayoutRow(db: Db, userId: number, id: number): Promise<boolean> {
  const [deleted]: [unknown[], number] = await db.query('DELETE FROM chart_layouts WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  return deleted.length > 0;
}

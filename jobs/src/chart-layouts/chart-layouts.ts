import type { DataSource, EntityManager } from 'typeorm';
import type { ChartLayoutBody } from './chart-layout-shape';

/** Layouts one user may save. */
export const CHART_LAYOUTS_PER_USER_MAX = 100;
/** Longest layout name (the column's length). */
export const CHART_LAYOUT_NAME_MAX = 100;

/** A layout in the list: without its body, with the symbol and interval it opens on. */
export interface ChartLayoutSummary {
  id: number;
  name: string;
  isDefault: boolean;
  symbol: string | null;
  interval: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ChartLayoutView {
  id: number;
  name: string;
  isDefault: boolean;
  layout: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export type ChartLayoutErrorCode = 'not_found' | 'limit' | 'default_conflict';

/** The caller's request cannot be applied; nothing was written. The api maps the code to a status. */
export class ChartLayoutError extends Error {
  constructor(
    readonly code: ChartLayoutErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ChartLayoutError';
  }
}

const layoutNotFound = () => new ChartLayoutError('not_found', 'No such chart layout');

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
async function lockUser(manager: EntityManager, userId: number): Promise<void> {
  await manager.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
}

/** Runs a change; a violation of the one-default index (the backstop) becomes a 409, not a 500. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
    if (driverError?.code === '23505' && driverError.constraint === 'uq_chart_layouts_default_per_user') {
      throw new ChartLayoutError('default_conflict', 'Another layout became the default at the same time: try again');
    }
    throw error;
  }
}

async function unsetOtherDefaults(manager: EntityManager, userId: number, keepId: number): Promise<void> {
  await manager.query('UPDATE chart_layouts SET is_default = false, updated_at = now() WHERE user_id = $1 AND is_default AND id <> $2', [userId, keepId]);
}

async function loadView(db: DataSource | EntityManager, userId: number, id: number): Promise<ChartLayoutView> {
  const [row]: LayoutRow[] = await db.query(`SELECT ${COLUMNS} FROM chart_layouts WHERE id = $1 AND user_id = $2`, [id, userId]);
  if (!row) throw layoutNotFound();
  return toView(row);
}

/** The user's layouts by name, without their bodies. */
export async function listChartLayouts(db: DataSource | EntityManager, userId: number): Promise<ChartLayoutSummary[]> {
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
export async function getChartLayout(db: DataSource | EntityManager, userId: number, id: number): Promise<ChartLayoutView | null> {
  const [row]: LayoutRow[] = await db.query(`SELECT ${COLUMNS} FROM chart_layouts WHERE id = $1 AND user_id = $2`, [id, userId]);
  return row ? toView(row) : null;
}

/** The user's default layout, or null when none is marked. */
export async function getDefaultChartLayout(db: DataSource | EntityManager, userId: number): Promise<ChartLayoutView | null> {
  const [row]: LayoutRow[] = await db.query(`SELECT ${COLUMNS} FROM chart_layouts WHERE user_id = $1 AND is_default`, [userId]);
  return row ? toView(row) : null;
}

export interface NewChartLayout {
  name: string;
  layout: ChartLayoutBody;
  isDefault?: boolean;
}

/** Saves a layout; as the default it takes the mark from the previous one. */
export async function createChartLayout(db: DataSource, userId: number, input: NewChartLayout): Promise<ChartLayoutView> {
  return guarded(() =>
    db.transaction(async (manager) => {
      await lockUser(manager, userId);
      const [{ count }]: { count: number }[] = await manager.query('SELECT count(*)::int AS count FROM chart_layouts WHERE user_id = $1', [userId]);
      if (count >= CHART_LAYOUTS_PER_USER_MAX) {
        throw new ChartLayoutError('limit', `You can save at most ${CHART_LAYOUTS_PER_USER_MAX} chart layouts`, { max: CHART_LAYOUTS_PER_USER_MAX });
      }
      const isDefault = input.isDefault ?? false;
      if (isDefault) await unsetOtherDefaults(manager, userId, 0);
      const [row]: { id: number }[] = await manager.query(
        'INSERT INTO chart_layouts (user_id, name, layout, is_default) VALUES ($1, $2, $3::jsonb, $4) RETURNING id',
        [userId, input.name, JSON.stringify(input.layout), isDefault],
      );
      return loadView(manager, userId, row.id);
    }),
  );
}

export interface ChartLayoutChanges {
  name?: string;
  layout?: ChartLayoutBody;
  isDefault?: boolean;
}

/** Renames, replaces the body, and/or sets or clears the default mark. */
export async function updateChartLayout(db: DataSource, userId: number, id: number, changes: ChartLayoutChanges): Promise<ChartLayoutView> {
  return guarded(() =>
    db.transaction(async (manager) => {
      await lockUser(manager, userId);
      const [found]: { id: number }[] = await manager.query('SELECT id FROM chart_layouts WHERE id = $1 AND user_id = $2', [id, userId]);
      if (!found) throw layoutNotFound();
      if (changes.isDefault) await unsetOtherDefaults(manager, userId, id);
      await manager.query(
        `UPDATE chart_layouts
            SET name = COALESCE($3, name),
                layout = COALESCE($4::jsonb, layout),
                is_default = COALESCE($5, is_default),
                updated_at = now()
          WHERE id = $1 AND user_id = $2`,
        [id, userId, changes.name ?? null, changes.layout === undefined ? null : JSON.stringify(changes.layout), changes.isDefault ?? null],
      );
      return loadView(manager, userId, id);
    }),
  );
}

/** Makes the layout the user's only default (unset the other, then set, in one transaction). */
export function makeDefaultChartLayout(db: DataSource, userId: number, id: number): Promise<ChartLayoutView> {
  return updateChartLayout(db, userId, id, { isDefault: true });
}

export async function deleteChartLayout(db: DataSource, userId: number, id: number): Promise<void> {
  const [deleted]: [unknown[], number] = await db.query('DELETE FROM chart_layouts WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  if (!deleted.length) throw layoutNotFound();
}

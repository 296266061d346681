import type { DataSource, EntityManager } from 'typeorm';
import type { ChartLayoutBody } from './chart-layout-shape';
import { CHART_LAYOUTS_PER_USER_MAX, type ChartLayoutErrorCode } from './chart-layouts.shapes';
import {
  chartLayoutExists,
  countChartLayouts,
  deleteChartLayoutRow,
  getChartLayout,
  insertChartLayoutRow,
  lockChartLayoutsOwner,
  unsetOtherDefaultLayouts,
  updateChartLayoutRow,
  type ChartLayoutView,
} from './chart-layouts.store';

/**
 * What the api does with a user's chart layouts: each change is one transaction of the store's
 * queries under the user's lock, and a refusal is a ChartLayoutError (nothing written).
 */

export { CHART_LAYOUT_NAME_MAX, CHART_LAYOUTS_PER_USER_MAX, type ChartLayoutErrorCode } from './chart-layouts.shapes';

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

async function loadView(db: DataSource | EntityManager, userId: number, id: number): Promise<ChartLayoutView> {
  const view = await getChartLayout(db, userId, id);
  if (!view) throw layoutNotFound();
  return view;
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
      await lockChartLayoutsOwner(manager, userId);
      if ((await countChartLayouts(manager, userId)) >= CHART_LAYOUTS_PER_USER_MAX) {
        throw new ChartLayoutError('limit', `You can save at most ${CHART_LAYOUTS_PER_USER_MAX} chart layouts`, { max: CHART_LAYOUTS_PER_USER_MAX });
      }
      const isDefault = input.isDefault ?? false;
      if (isDefault) await unsetOtherDefaultLayouts(manager, userId, 0);
      const id = await insertChartLayoutRow(manager, userId, { name: input.name, layout: input.layout, isDefault });
      return loadView(manager, userId, id);
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
      await lockChartLayoutsOwner(manager, userId);
      if (!(await chartLayoutExists(manager, userId, id))) throw layoutNotFound();
      if (changes.isDefault) await unsetOtherDefaultLayouts(manager, userId, id);
      await updateChartLayoutRow(manager, userId, id, changes);
      return loadView(manager, userId, id);
    }),
  );
}

/** Makes the layout the user's only default (unset the other, then set, in one transaction). */
export function makeDefaultChartLayout(db: DataSource, userId: number, id: number): Promise<ChartLayoutView> {
  return updateChartLayout(db, userId, id, { isDefault: true });
}

export async function deleteChartLayout(db: DataSource, userId: number, id: number): Promise<void> {
  if (!(await deleteChartLayoutRow(db, userId, id))) throw layoutNotFound();
}

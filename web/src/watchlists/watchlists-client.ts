// The watchlists api (/api/watchlists): lists with ordered items, reorder, CSV import/export.
// Every change goes through sendWithCsrf (the session's csrf token as x-csrf-token).
import { apiRequest, isRecord } from '../api/client';
import {
  WATCHLIST_NAME_MAX,
  type WatchlistImportResult,
  type WatchlistItemAdded,
  type WatchlistItemView,
  type WatchlistView,
} from '@tickerbell/jobs/watchlists/shapes';
import { sendWithCsrf } from '../accounts/auth-client';

function fail(where: string, expected: string): never {
  throw new TypeError(`${where}: expected ${expected}`);
}

/** Ids arrive as numbers (or numeric strings from PostgreSQL bigint). */
function idOf(value: unknown, where: string): number {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isInteger(id)) fail(where, 'an id');
  return id;
}

function parseItem(value: unknown, where: string): WatchlistItemView {
  if (!isRecord(value)) fail(where, 'an object');
  const { symbol, name, type, order } = value;
  if (typeof symbol !== 'string') fail(`${where}.symbol`, 'text');
  return {
    id: idOf(value.id, `${where}.id`),
    symbol,
    name: typeof name === 'string' ? name : symbol,
    type: typeof type === 'string' ? type : 'unknown',
    order: typeof order === 'number' ? order : 0,
  };
}

export function parseWatchlist(value: unknown, where = 'watchlist'): WatchlistView {
  if (!isRecord(value)) fail(where, 'an object');
  const { name, createdAt, updatedAt, items } = value;
  if (typeof name !== 'string') fail(`${where}.name`, 'text');
  const parsedItems = Array.isArray(items) ? items.map((item: unknown, index) => parseItem(item, `${where}.items[${index}]`)) : [];
  parsedItems.sort((a, b) => a.order - b.order);
  return {
    id: idOf(value.id, `${where}.id`),
    name,
    createdAt: typeof createdAt === 'string' ? createdAt : '',
    updatedAt: typeof updatedAt === 'string' ? updatedAt : '',
    items: parsedItems,
  };
}

/** `{ watchlists: [...] }` as api/src/watchlists answers; a bare list or `{ items }` is read too. */
export function parseWatchlists(body: unknown): WatchlistView[] {
  const list = Array.isArray(body) ? body : isRecord(body) ? (body.watchlists ?? body.items) : undefined;
  if (!Array.isArray(list)) fail('watchlists', 'a list');
  return list.map((value: unknown, index) => parseWatchlist(value, `watchlists[${index}]`));
}

/** A single watchlist, bare or wrapped as `{ watchlist }`. */
function parseOneWatchlist(body: unknown): WatchlistView {
  return parseWatchlist(isRecord(body) && isRecord(body.watchlist) ? body.watchlist : body);
}

/** An added item: `{ item, watchlist }` (the list as stored now, WatchlistItemAdded), or the bare item. */
export type AddedItem = Omit<WatchlistItemAdded, 'watchlist'> & { watchlist: WatchlistView | null };

function parseAddedItem(body: unknown): AddedItem {
  if (isRecord(body) && isRecord(body.item)) {
    return { item: parseItem(body.item, 'item'), watchlist: isRecord(body.watchlist) ? parseWatchlist(body.watchlist) : null };
  }
  return { item: parseItem(body, 'item'), watchlist: null };
}

/** An import: the new list and how many rows it took (`{ watchlist, imported, duplicates }`). */
export type ImportedWatchlist = Pick<WatchlistImportResult, 'watchlist'> & { imported: number | null; duplicates: number | null };

function parseImported(body: unknown): ImportedWatchlist {
  const count = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);
  return {
    watchlist: parseOneWatchlist(body),
    imported: isRecord(body) ? count(body.imported) : null,
    duplicates: isRecord(body) ? count(body.duplicates) : null,
  };
}

const ignoreBody = (): undefined => undefined;

export const WATCHLISTS_PATH = '/api/watchlists';

function watchlistPath(id: number): string {
  return `${WATCHLISTS_PATH}/${id}`;
}

export function getWatchlists(signal?: AbortSignal): Promise<WatchlistView[]> {
  return apiRequest(WATCHLISTS_PATH, { signal, parse: parseWatchlists });
}

export function createWatchlist(name: string): Promise<WatchlistView> {
  return sendWithCsrf(WATCHLISTS_PATH, { method: 'POST', body: { name }, parse: parseOneWatchlist });
}

export function renameWatchlist(id: number, name: string): Promise<WatchlistView> {
  return sendWithCsrf(watchlistPath(id), { method: 'PATCH', body: { name }, parse: parseOneWatchlist });
}

export async function deleteWatchlist(id: number): Promise<void> {
  await sendWithCsrf(watchlistPath(id), { method: 'DELETE', parse: ignoreBody });
}

export function addWatchlistItem(id: number, symbol: string): Promise<AddedItem> {
  return sendWithCsrf(`${watchlistPath(id)}/items`, { method: 'POST', body: { symbol }, parse: parseAddedItem });
}

export async function removeWatchlistItem(id: number, itemId: number): Promise<void> {
  await sendWithCsrf(`${watchlistPath(id)}/items/${itemId}`, { method: 'DELETE', parse: ignoreBody });
}

export async function reorderWatchlist(id: number, itemIds: readonly number[]): Promise<void> {
  await sendWithCsrf(`${watchlistPath(id)}/order`, { method: 'PUT', body: { itemIds }, parse: ignoreBody });
}

export function exportWatchlistUrl(id: number): string {
  return `${watchlistPath(id)}/export.csv`;
}

/** Posts a CSV file's text as a new list named `name`; answers the list the api created. */
export function importWatchlist(name: string, csv: string): Promise<ImportedWatchlist> {
  return sendWithCsrf(`${WATCHLISTS_PATH}/import?${new URLSearchParams({ name }).toString()}`, {
    method: 'POST',
    rawBody: { contentType: 'text/csv', text: csv },
    parse: parseImported,
  });
}

/** A list name from an uploaded file's name: "crypto majors.csv" -> "crypto majors". */
export function watchlistNameOfFile(fileName: string): string {
  const base = fileName.replace(/\.csv$/i, '').trim();
  return (base === '' ? 'Imported watchlist' : base).slice(0, WATCHLIST_NAME_MAX);
}

/** The list with `items` moved from index `from` to `to`, orders renumbered. */
export function moveItem(items: readonly WatchlistItemView[], from: number, to: number): WatchlistItemView[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return [...items];
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next.map((item, index) => ({ ...item, order: index }));
}

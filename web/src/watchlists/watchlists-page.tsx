// /dashboard/watchlists: the user's lists (create, rename, delete, import, export) and the chosen
// list's symbols with live prices, added through the market search and reordered by drag.
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import type { MarketView } from '@tickerbell/jobs/prices/shapes';
import { WATCHLIST_NAME_MAX, type WatchlistItemView, type WatchlistView } from '@tickerbell/jobs/watchlists/shapes';
import { SymbolSearch } from '../prices/symbol-search';
import { SimulatedBadge } from '../prices/simulated-badge';
import { useLiveQuotes } from '../prices/use-live-quotes';
import { messageOf } from '../accounts/auth-client';
import { NewsColumn } from '../news/news-column';
import { WatchlistTable } from './watchlist-table';
import {
  addWatchlistItem,
  createWatchlist,
  deleteWatchlist,
  exportWatchlistUrl,
  getWatchlists,
  importWatchlist,
  moveItem,
  removeWatchlistItem,
  renameWatchlist,
  reorderWatchlist,
  watchlistNameOfFile,
  type ImportedWatchlist,
} from './watchlists-client';
import './watchlists.css';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; lists: WatchlistView[] };
type Feedback = { kind: 'error' | 'success'; text: string } | null;

/** The selected list: `?list=<id>` when it exists, else the first. */
function selectedOf(lists: readonly WatchlistView[], param: string | null): WatchlistView | undefined {
  return lists.find((list) => String(list.id) === param) ?? lists[0];
}

function importedText({ watchlist, imported, duplicates }: ImportedWatchlist): string {
  const count = imported ?? watchlist.items.length;
  const repeated = duplicates ? ` (${duplicates} repeated ${duplicates === 1 ? 'row' : 'rows'} skipped)` : '';
  return `Imported “${watchlist.name}” with ${count} ${count === 1 ? 'symbol' : 'symbols'}${repeated}.`;
}

export function WatchlistsPage() {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [params, setParams] = useSearchParams();
  const [feedback, setFeedback] = useState<Feedback>(null);

  useEffect(() => {
    const controller = new AbortController();
    getWatchlists(controller.signal)
      .then((lists) => setLoaded({ state: 'ready', lists }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ state: 'failed', message: messageOf(error) });
      });
    return () => controller.abort();
  }, []);

  const lists = loaded.state === 'ready' ? loaded.lists : [];
  const selected = selectedOf(lists, params.get('list'));

  const select = (id: number): void => setParams({ list: String(id) }, { replace: true });
  const updateLists = (change: (lists: WatchlistView[]) => WatchlistView[]): void =>
    setLoaded((current) => (current.state === 'ready' ? { state: 'ready', lists: change(current.lists) } : current));
  const updateList = (id: number, change: (list: WatchlistView) => WatchlistView): void =>
    updateLists((current) => current.map((list) => (list.id === id ? change(list) : list)));
  const fail = (what: string, error: unknown): void => setFeedback({ kind: 'error', text: `${what}: ${messageOf(error)}` });

  const onCreated = (list: WatchlistView, text: string): void => {
    updateLists((current) => [...current, list]);
    select(list.id);
    setFeedback({ kind: 'success', text });
  };

  return (
    <>
      <title>Watchlists · Tickerbell</title>
      <h1>Watchlists</h1>
      <p className="page-lede">Your symbols with live prices. Drag a row by its handle (or use Space and the arrow keys on it) to reorder.</p>
      {feedback && (
        <p className={`form-message form-message--${feedback.kind}`} role={feedback.kind === 'error' ? 'alert' : 'status'}>
          {feedback.text}
        </p>
      )}
      {loaded.state === 'loading' && <p role="status">Loading your watchlists…</p>}
      {loaded.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          Your watchlists could not be loaded: {loaded.message}
        </p>
      )}
      {loaded.state === 'ready' && (
        <div className="watchlists">
          <aside className="watchlists__side">
            <section className="dashboard-panel" aria-labelledby="watchlists-title">
              <h2 id="watchlists-title">Your lists</h2>
              {lists.length === 0 ? (
                <p className="empty-state">No watchlists yet. Create one below or import a CSV file.</p>
              ) : (
                <ul className="watchlist-picker">
                  {lists.map((list) => (
                    <li key={list.id}>
                      <button
                        type="button"
                        className={list.id === selected?.id ? 'watchlist-picker__item watchlist-picker__item--active' : 'watchlist-picker__item'}
                        aria-current={list.id === selected?.id ? 'true' : undefined}
                        onClick={() => select(list.id)}
                      >
                        <span>{list.name}</span> <span className="watchlist-picker__count">{list.items.length}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              <NewWatchlistForm onCreated={(list) => onCreated(list, `Created “${list.name}”.`)} onError={(error) => fail('Could not create the list', error)} />
              <ImportWatchlist onImported={(result) => onCreated(result.watchlist, importedText(result))} onError={(error) => fail('Could not import the file', error)} />
            </section>
          </aside>
          <div className="watchlists__main">
            {selected ? (
              <WatchlistPanel
                key={selected.id}
                list={selected}
                onChange={(change) => updateList(selected.id, change)}
                onDeleted={() => {
                  updateLists((current) => current.filter((list) => list.id !== selected.id));
                  setParams({}, { replace: true });
                  setFeedback({ kind: 'success', text: `Deleted “${selected.name}”.` });
                }}
                setFeedback={setFeedback}
              />
            ) : (
              <section className="dashboard-panel">
                <p className="empty-state">Create a watchlist to follow symbols and their live prices.</p>
              </section>
            )}
          </div>
        </div>
      )}
    </>
  );
}

function NewWatchlistForm({ onCreated, onError }: { onCreated: (list: WatchlistView) => void; onError: (error: unknown) => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (name.trim() === '') return;
    setBusy(true);
    try {
      onCreated(await createWatchlist(name.trim()));
      setName('');
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form watchlists__form" aria-label="New watchlist" onSubmit={(event) => void onSubmit(event)}>
      <label className="form-field">
        <span className="form-field__label">New list name</span>
        <input className="form-field__input" value={name} maxLength={WATCHLIST_NAME_MAX} onChange={(event) => setName(event.target.value)} required />
      </label>
      <button type="submit" className="button button--primary" disabled={busy || name.trim() === ''}>
        {busy ? 'Creating…' : 'Create list'}
      </button>
    </form>
  );
}

function ImportWatchlist({ onImported, onError }: { onImported: (result: ImportedWatchlist) => void; onError: (error: unknown) => void }) {
  const [busy, setBusy] = useState(false);
  const onChange = async (event: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    try {
      onImported(await importWatchlist(watchlistNameOfFile(file.name), await file.text()));
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
      // The same file can be chosen again after a fix.
      input.value = '';
    }
  };
  return (
    <div className="form-field watchlists__import">
      <label className="form-field__label" htmlFor="watchlist-import">
        Import a CSV file
      </label>
      <input id="watchlist-import" type="file" accept=".csv,text/csv" disabled={busy} onChange={(event) => void onChange(event)} />
      <span className="form-field__hint">One symbol per row (a “symbol” column). The file name becomes the list name.</span>
    </div>
  );
}

interface WatchlistPanelProps {
  list: WatchlistView;
  onChange: (change: (list: WatchlistView) => WatchlistView) => void;
  onDeleted: () => void;
  setFeedback: (feedback: Feedback) => void;
}

function WatchlistPanel({ list, onChange, onDeleted, setFeedback }: WatchlistPanelProps) {
  const { quotes, error: quotesError } = useLiveQuotes(list.items.map((item) => item.symbol));
  const [busyItemId, setBusyItemId] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  // The symbol whose news shows beside the list: the picked one while it is on the list, else the first.
  const [picked, setPicked] = useState<string | null>(null);
  const newsSymbol = list.items.find((item) => item.symbol === picked)?.symbol ?? list.items[0]?.symbol ?? null;
  // Saves of the order run one after another; a failure rolls back to the last saved order.
  const savedOrder = useRef<WatchlistItemView[]>(list.items);
  const saving = useRef<Promise<void>>(Promise.resolve());
  const simulated = [...quotes.values()].some((quote) => quote.quote.simulated);

  const fail = (what: string, error: unknown): void => setFeedback({ kind: 'error', text: `${what}: ${messageOf(error)}` });

  const onAdd = async (market: MarketView): Promise<void> => {
    if (list.items.some((item) => item.symbol === market.symbol)) {
      setFeedback({ kind: 'error', text: `${market.symbol} is already on “${list.name}”.` });
      return;
    }
    setAdding(true);
    try {
      const { item, watchlist } = await addWatchlistItem(list.id, market.symbol);
      // The list as the api stored it when it says so, else the item at the end.
      const items = watchlist ? watchlist.items : [...list.items, item];
      onChange((current) => ({ ...current, items }));
      savedOrder.current = items;
      setFeedback({ kind: 'success', text: `Added ${item.symbol} to “${list.name}”.` });
    } catch (error) {
      fail(`Could not add ${market.symbol}`, error);
    } finally {
      setAdding(false);
    }
  };

  const onRemove = async (item: WatchlistItemView): Promise<void> => {
    setBusyItemId(item.id);
    try {
      await removeWatchlistItem(list.id, item.id);
      onChange((current) => ({ ...current, items: current.items.filter((other) => other.id !== item.id) }));
      savedOrder.current = savedOrder.current.filter((other) => other.id !== item.id);
      setFeedback({ kind: 'success', text: `Removed ${item.symbol} from “${list.name}”.` });
    } catch (error) {
      fail(`Could not remove ${item.symbol}`, error);
    } finally {
      setBusyItemId(null);
    }
  };

  const onMove = (from: number, to: number): void => {
    const next = moveItem(list.items, from, to);
    onChange((current) => ({ ...current, items: next }));
    saving.current = saving.current.then(async () => {
      try {
        await reorderWatchlist(
          list.id,
          next.map((item) => item.id),
        );
        savedOrder.current = next;
      } catch (error) {
        const rollback = savedOrder.current;
        onChange((current) => ({ ...current, items: rollback }));
        fail('The new order could not be saved, so it was undone', error);
      }
    });
  };

  return (
    <div className="watchlist-with-news">
      <section className="dashboard-panel watchlist-panel" aria-labelledby="watchlist-title">
        <WatchlistHeader list={list} onChange={onChange} onDeleted={onDeleted} setFeedback={setFeedback} />
        <div className="watchlist-panel__tools">
          <SymbolSearch label="Add a symbol" onSelect={(market) => void onAdd(market)} disabled={adding} />
          {simulated && <SimulatedBadge />}
        </div>
        {quotesError && (
          <p className="form-message form-message--error" role="alert">
            Prices could not be loaded: {quotesError}
          </p>
        )}
        {list.items.length === 0 ? (
          <p className="empty-state">This list is empty. Find a symbol with the search box above to add it.</p>
        ) : (
          <WatchlistTable
            listName={list.name}
            items={list.items}
            quotes={quotes}
            onMove={onMove}
            onRemove={(item) => void onRemove(item)}
            busyItemId={busyItemId}
            newsSymbol={newsSymbol}
            onSelectNews={setPicked}
          />
        )}
      </section>
      {newsSymbol && <NewsColumn symbol={newsSymbol} className="watchlist-news" />}
    </div>
  );
}

function WatchlistHeader({ list, onChange, onDeleted, setFeedback }: WatchlistPanelProps) {
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const [name, setName] = useState(list.name);
  const [busy, setBusy] = useState(false);

  const onRename = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    try {
      const renamed = await renameWatchlist(list.id, name.trim());
      onChange((current) => ({ ...current, name: renamed.name, updatedAt: renamed.updatedAt }));
      setMode('view');
      setFeedback({ kind: 'success', text: `Renamed to “${renamed.name}”.` });
    } catch (error) {
      setFeedback({ kind: 'error', text: `Could not rename the list: ${messageOf(error)}` });
    } finally {
      setBusy(false);
    }
  };

  const onDelete = async (): Promise<void> => {
    setBusy(true);
    try {
      await deleteWatchlist(list.id);
      onDeleted();
    } catch (error) {
      // Already gone elsewhere: drop it here too.
      if (error instanceof ApiError && error.status === 404) onDeleted();
      else setFeedback({ kind: 'error', text: `Could not delete the list: ${messageOf(error)}` });
      setBusy(false);
    }
  };

  return (
    <div className="watchlist-panel__header">
      {mode === 'rename' ? (
        <form className="form form--inline" aria-label="Rename watchlist" onSubmit={(event) => void onRename(event)}>
          <label className="form-field">
            <span className="form-field__label">List name</span>
            <input className="form-field__input" value={name} maxLength={WATCHLIST_NAME_MAX} onChange={(event) => setName(event.target.value)} required autoFocus />
          </label>
          <button type="submit" className="button button--primary" disabled={busy || name.trim() === ''}>
            Save name
          </button>
          <button type="button" className="button button--secondary" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : (
        <h2 id="watchlist-title">{list.name}</h2>
      )}
      <div className="toolbar">
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => {
            setName(list.name);
            setMode('rename');
          }}
        >
          Rename
        </button>
        <a className="button button--secondary button--small" href={exportWatchlistUrl(list.id)} download={`${list.name}.csv`}>
          Export CSV
        </a>
        <button type="button" className="button button--danger button--small" onClick={() => setMode('delete')}>
          Delete…
        </button>
      </div>
      {mode === 'delete' && (
        <div
          className="confirm-dialog"
          role="dialog"
          aria-modal="true"
          aria-labelledby="watchlist-delete-title"
          onKeyDown={(event) => {
            if (event.key === 'Escape') setMode('view');
          }}
        >
          <h3 id="watchlist-delete-title">Delete “{list.name}”?</h3>
          <p>
            The list and its {list.items.length} {list.items.length === 1 ? 'symbol' : 'symbols'} are removed. Alerts on these symbols are not affected.
          </p>
          <div className="toolbar">
            <button type="button" className="button button--secondary" onClick={() => setMode('view')} autoFocus>
              Cancel
            </button>
            <button type="button" className="button button--danger" disabled={busy} onClick={() => void onDelete()}>
              {busy ? 'Deleting…' : 'Delete list'}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

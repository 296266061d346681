// A watchlist's items with live prices, reorderable by drag (pointer) or by keyboard: focus a
// row's handle, Space to pick it up, arrows to move, Space to drop, Escape to cancel.
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Link } from 'react-router-dom';
import { changeDirection, formatChangePercent, formatPrice } from '../prices/markets-client';
import type { LiveQuote } from '../prices/use-live-quotes';
import { chartPath } from '../charts/chart-paths';
import type { WatchlistItemView } from '@tickerbell/jobs/watchlists/shapes';

interface WatchlistTableProps {
  listName: string;
  items: readonly WatchlistItemView[];
  quotes: ReadonlyMap<string, LiveQuote>;
  /** Moves the item at `from` to `to` (the page applies it at once and saves it). */
  onMove: (from: number, to: number) => void;
  onRemove: (item: WatchlistItemView) => void;
  busyItemId: number | null;
  /** The symbol whose news the page shows beside the list; clicking a row (or its News button) picks it. */
  newsSymbol?: string | null;
  onSelectNews?: (symbol: string) => void;
}

function changeClass(change: string | null): string {
  const direction = changeDirection(change);
  return direction > 0 ? 'price-change price-change--up' : direction < 0 ? 'price-change price-change--down' : 'price-change';
}

interface WatchlistRowProps {
  item: WatchlistItemView;
  quote: LiveQuote | undefined;
  onRemove: () => void;
  busy: boolean;
  selected: boolean;
  onSelect: (() => void) | undefined;
}

function WatchlistRow({ item, quote, onRemove, busy, selected, onSelect }: WatchlistRowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.id });
  const style = { transform: CSS.Translate.toString(transform), transition };
  const flashClass = quote?.flash ? ` price--flash-${quote.flash}` : '';
  const rowClass = `watchlist-row${isDragging ? ' watchlist-row--dragging' : ''}${selected ? ' watchlist-row--selected' : ''}`;
  return (
    <tr
      ref={setNodeRef}
      style={style}
      className={rowClass}
      data-item-id={item.id}
      // A click anywhere on the row picks its news (the News button does it from the keyboard).
      onClick={(event) => {
        if (onSelect && !(event.target instanceof Element && event.target.closest('a, button'))) onSelect();
      }}
    >
      <td className="watchlist-row__handle">
        <button
          type="button"
          ref={setActivatorNodeRef}
          className="drag-handle"
          {...attributes}
          {...listeners}
          aria-label={`Reorder ${item.symbol}`}
        >
          <span aria-hidden="true">⠿</span>
        </button>
      </td>
      <th scope="row">
        <Link to={chartPath(item.symbol)} className="watchlist-row__symbol">
          {item.symbol}
        </Link>
        <span className="data-table__sub">{item.name}</span>
      </th>
      <td className="numeric">
        {quote ? (
          <span key={quote.tick} className={`price${flashClass}`} data-testid={`price-${item.symbol}`}>
            {formatPrice(quote.quote.price, item)}
          </span>
        ) : (
          <span className="price price--missing" data-testid={`price-${item.symbol}`}>
            —
          </span>
        )}
      </td>
      <td className="numeric">
        <span className={changeClass(quote?.quote.change24hPercent ?? null)}>{formatChangePercent(quote?.quote.change24hPercent ?? null)}</span>
      </td>
      <td className="watchlist-row__actions">
        {onSelect && (
          <button type="button" className="button button--ghost button--small" aria-pressed={selected} onClick={onSelect} aria-label={`News about ${item.symbol}`}>
            News
          </button>
        )}
        <button type="button" className="button button--ghost button--small" disabled={busy} onClick={onRemove} aria-label={`Remove ${item.symbol}`}>
          Remove
        </button>
      </td>
    </tr>
  );
}

export function WatchlistTable({ listName, items, quotes, onMove, onRemove, busyItemId, newsSymbol = null, onSelectNews }: WatchlistTableProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const symbolOf = (id: string | number): string => items.find((item) => item.id === id)?.symbol ?? String(id);
  const positionOf = (id: string | number): number => items.findIndex((item) => item.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${symbolOf(active.id)}, position ${positionOf(active.id)} of ${items.length}.`,
    onDragOver: ({ active, over }) => (over ? `${symbolOf(active.id)} is over position ${positionOf(over.id)} of ${items.length}.` : undefined),
    onDragEnd: ({ active, over }) => (over ? `${symbolOf(active.id)} dropped at position ${positionOf(over.id)} of ${items.length}.` : `${symbolOf(active.id)} dropped.`),
    onDragCancel: ({ active }) => `Moving ${symbolOf(active.id)} was cancelled.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent): void => {
    if (!over || active.id === over.id) return;
    const from = items.findIndex((item) => item.id === active.id);
    const to = items.findIndex((item) => item.id === over.id);
    if (from >= 0 && to >= 0) onMove(from, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: 'To reorder, press Space on the handle, move with the arrow keys, then press Space again to drop or Escape to cancel.' },
      }}
    >
      <div className="table-scroll">
        <table className="data-table watchlist-table">
          <caption className="visually-hidden">{listName}: symbols with their latest prices</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Order</span>
              </th>
              <th scope="col">Symbol</th>
              <th scope="col" className="numeric">
                Price
              </th>
              <th scope="col" className="numeric">
                24 h
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            <SortableContext items={items.map((item) => item.id)} strategy={verticalListSortingStrategy}>
              {items.map((item) => (
                <WatchlistRow
                  key={item.id}
                  item={item}
                  quote={quotes.get(item.symbol)}
                  busy={busyItemId === item.id}
                  onRemove={() => onRemove(item)}
                  selected={item.symbol === newsSymbol}
                  onSelect={onSelectNews ? () => onSelectNews(item.symbol) : undefined}
                />
              ))}
            </SortableContext>
          </tbody>
        </table>
      </div>
    </DndContext>
  );
}

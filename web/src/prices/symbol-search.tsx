// The one market picker: a combobox over GET /api/markets?q= (debounced). Type a symbol or a name,
// pick a market from the list (mouse, or arrows and Enter; Escape closes the list). Two uses:
// - a search box (watchlists: add a symbol; charts: open one): no `value`, the box empties after
//   each pick;
// - a form field (the alert dialog): `value` is the picked market, shown in the box and kept after
//   a pick, with a hint naming it, the field's `error` and an `inputRef` the form focuses.
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { messageOf } from '../accounts/auth-client';
import type { MarketView } from '@tickerbell/jobs/prices/shapes';
import { searchMarkets } from './markets-client';
import './prices.css';

/** Wait this long after the last keystroke before asking the api. */
export const SEARCH_DEBOUNCE_MS = 200;

/** The market a form field holds: its type is unknown (null) until one is picked from the list. */
export interface SymbolValue {
  symbol: string;
  marketType: string | null;
}

interface SymbolSearchProps {
  label: string;
  placeholder?: string;
  /** Called with the chosen market. */
  onSelect: (market: MarketView) => void;
  disabled?: boolean;
  /** Form-field use: the current market, shown in the box. Without it the box empties after a pick. */
  value?: SymbolValue;
  /** Form-field use: text typed by hand (the api says later whether such a symbol exists). */
  onType?: (text: string) => void;
  /** The field's error, announced with the box (aria-describedby). */
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** The input's name (form fields). */
  name?: string;
  /** Extra class of the wrapper (a caller's layout hook). */
  className?: string;
}

type Results = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; markets: MarketView[] } | { state: 'failed'; message: string };

/** Both the component's own ref (focus after a pick) and the caller's. */
function useMergedRef(own: { current: HTMLInputElement | null }, other: Ref<HTMLInputElement> | undefined) {
  return useCallback(
    (node: HTMLInputElement | null) => {
      own.current = node;
      if (typeof other === 'function') other(node);
      else if (other) other.current = node;
    },
    [own, other],
  );
}

export function SymbolSearch({
  label,
  placeholder = 'Symbol or name, e.g. BTC',
  onSelect,
  disabled = false,
  value,
  onType,
  error,
  inputRef,
  name,
  className,
}: SymbolSearchProps) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const isField = value !== undefined;
  const [query, setQuery] = useState(value?.symbol ?? '');
  // Only what the user typed is searched: not a form's initial value, nor the symbol just picked.
  const [armed, setArmed] = useState(false);
  const [results, setResults] = useState<Results>({ state: 'idle' });
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const ownRef = useRef<HTMLInputElement>(null);
  const ref = useMergedRef(ownRef, inputRef);
  const blurTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(blurTimer.current), []);

  useEffect(() => {
    const q = query.trim();
    if (!armed || q === '') {
      setResults({ state: 'idle' });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setResults({ state: 'loading' });
      searchMarkets(q, controller.signal)
        .then((markets) => {
          if (controller.signal.aborted) return;
          setResults({ state: 'ready', markets });
          setActive(0);
        })
        .catch((failure: unknown) => {
          if (!controller.signal.aborted) setResults({ state: 'failed', message: messageOf(failure) });
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, armed]);

  const markets = results.state === 'ready' ? results.markets : [];
  const expanded = open && results.state === 'ready' && query.trim() !== '';

  const choose = (market: MarketView): void => {
    onSelect(market);
    setQuery(isField ? market.symbol : '');
    setArmed(false);
    setResults({ state: 'idle' });
    setOpen(false);
    ownRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!expanded) {
        // Opens the list again (searching the box's text if it was not searched yet).
        setOpen(true);
        setArmed(true);
      } else if (markets.length) setActive((current) => (current + 1) % markets.length);
    } else if (event.key === 'ArrowUp' && expanded && markets.length) {
      event.preventDefault();
      setActive((current) => (current - 1 + markets.length) % markets.length);
    } else if (event.key === 'Enter') {
      // A search box submits nothing; in a form, Enter with the list closed submits the form.
      if (expanded || !isField) event.preventDefault();
      const market = markets[active];
      if (expanded && market) choose(market);
    } else if (event.key === 'Escape' && expanded) {
      // Closes the list only, not a dialog around it.
      event.stopPropagation();
      setOpen(false);
    }
  };

  const hint = isField ? (value.symbol && value.marketType ? `${value.symbol} · ${value.marketType}` : 'Search by symbol or name, e.g. BTC or Apple.') : null;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['symbol-search', isField ? 'form-field' : null, className].filter(Boolean).join(' ')}>
      <label className="form-field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        name={name}
        className="form-field__input"
        type="search"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && markets[active] ? `${listId}-${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        value={query}
        disabled={disabled}
        maxLength={50}
        onChange={(event) => {
          setQuery(event.target.value);
          setArmed(true);
          setOpen(true);
          onType?.(event.target.value);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => clearTimeout(blurTimer.current)}
        onBlur={() => {
          blurTimer.current = setTimeout(() => setOpen(false), 150);
        }}
      />
      {hint && (
        <p id={hintId} className="form-field__hint">
          {hint}
        </p>
      )}
      <ul id={listId} role="listbox" aria-label={`${label}: matching markets`} className="symbol-search__list" hidden={!expanded || markets.length === 0}>
        {markets.map((market, index) => (
          <li
            key={market.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'symbol-search__option symbol-search__option--active' : 'symbol-search__option'}
            // Mouse down, not click: the input's blur would close the list before a click lands.
            // The pick empties the list, so the press's own click never reaches an option; a
            // click alone (what a screen reader's virtual cursor sends) still picks.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(market);
            }}
            onClick={() => choose(market)}
          >
            <span className="symbol-search__symbol">{market.symbol}</span> <span className="symbol-search__name">{market.name}</span>{' '}
            <span className="symbol-search__type">{market.type}</span>
          </li>
        ))}
      </ul>
      <p className="form-field__hint" aria-live="polite">
        {results.state === 'loading' && open ? 'Searching…' : expanded && markets.length === 0 ? `No market matches “${query.trim()}”.` : ''}
      </p>
      {results.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          Markets could not be searched: {results.message}
        </p>
      )}
      {error && (
        <p id={errorId} className="form-field__error">
          {error}
        </p>
      )}
    </div>
  );
}

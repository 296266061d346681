// A search box over GET /api/markets?q=: type a symbol or a name, pick a market from the list
// (mouse, or arrows and Enter). Used by the watchlists (add a symbol) and the charts (open one).
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { messageOf } from '../session/auth-client';
import { searchMarkets, type MarketSummary } from './markets-client';
import '../prices/prices.css';

/** Wait this long after the last keystroke before asking the api. */
export const SEARCH_DEBOUNCE_MS = 200;

interface SymbolSearchProps {
  label: string;
  placeholder?: string;
  /** Called with the chosen market; the box empties afterwards. */
  onSelect: (market: MarketSummary) => void;
  disabled?: boolean;
}

type Results = { state: 'idle' } | { state: 'ready'; markets: MarketSummary[] } | { state: 'failed'; message: string };

export function SymbolSearch({ label, placeholder = 'Symbol or name, e.g. BTC', onSelect, disabled = false }: SymbolSearchProps) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results>({ state: 'idle' });
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const q = query.trim();
    if (q === '') {
      setResults({ state: 'idle' });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchMarkets(q, controller.signal)
        .then((markets) => {
          setResults({ state: 'ready', markets });
          setActive(0);
          setOpen(true);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setResults({ state: 'failed', message: messageOf(error) });
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const markets = results.state === 'ready' ? results.markets : [];
  const expanded = open && results.state === 'ready' && query.trim() !== '';

  const choose = (market: MarketSummary): void => {
    onSelect(market);
    setQuery('');
    setResults({ state: 'idle' });
    setOpen(false);
    inputRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'ArrowDown' && markets.length) {
      event.preventDefault();
      setOpen(true);
      setActive((current) => (current + 1) % markets.length);
    } else if (event.key === 'ArrowUp' && markets.length) {
      event.preventDefault();
      setActive((current) => (current - 1 + markets.length) % markets.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const market = markets[active];
      if (expanded && market) choose(market);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  const listId = `${id}-list`;
  const optionId = (index: number): string => `${id}-option-${index}`;
  return (
    <div className="symbol-search">
      <label className="form-field__label" htmlFor={`${id}-input`}>
        {label}
      </label>
      <input
        ref={inputRef}
        id={`${id}-input`}
        className="form-field__input"
        type="search"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && markets[active] ? optionId(active) : undefined}
        value={query}
        disabled={disabled}
        maxLength={50}
        onChange={(event) => {
          setQuery(event.target.value);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
      />
      <ul id={listId} role="listbox" aria-label={`${label}: results`} className="symbol-search__list" hidden={!expanded}>
        {markets.map((market, index) => (
          <li
            key={market.id}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'symbol-search__option symbol-search__option--active' : 'symbol-search__option'}
            // Mouse down, not click: the input's blur would close the list before a click lands.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(market);
            }}
          >
            <span className="symbol-search__symbol">{market.symbol}</span> <span className="symbol-search__name">{market.name}</span>{' '}
            <span className="symbol-search__type">{market.type}</span>
          </li>
        ))}
        {expanded && markets.length === 0 && (
          <li className="symbol-search__empty" role="option" aria-selected={false} aria-disabled="true">
            No market matches “{query.trim()}”.
          </li>
        )}
      </ul>
      {results.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          Search failed: {results.message}
        </p>
      )}
    </div>
  );
}

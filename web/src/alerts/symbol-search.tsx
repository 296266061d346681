// The market picker of the alert dialog: a combobox over GET /api/markets?q= (debounced).
import { useEffect, useId, useState, type KeyboardEvent, type Ref } from 'react';
import { messageOf } from '../session/auth-client';
import { searchMarkets, type MarketMatch } from './alerts-client';

export const SYMBOL_SEARCH_DELAY_MS = 200;

interface SymbolSearchProps {
  symbol: string;
  marketType: string | null;
  error?: string;
  onPick: (symbol: string, marketType: string | null) => void;
  inputRef?: Ref<HTMLInputElement>;
}

type Results = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; markets: MarketMatch[] } | { state: 'failed'; message: string };

export function SymbolSearch({ symbol, marketType, error, onPick, inputRef }: SymbolSearchProps) {
  const id = useId();
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const [query, setQuery] = useState(symbol);
  const [open, setOpen] = useState(false);
  const [results, setResults] = useState<Results>({ state: 'idle' });
  const [active, setActive] = useState(0);

  useEffect(() => {
    const q = query.trim();
    if (!open || q === '') {
      setResults({ state: 'idle' });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setResults({ state: 'loading' });
      searchMarkets(q, controller.signal)
        .then((markets) => {
          setResults({ state: 'ready', markets });
          setActive(0);
        })
        .catch((failure: unknown) => {
          if (!controller.signal.aborted) setResults({ state: 'failed', message: messageOf(failure) });
        });
    }, SYMBOL_SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, open]);

  const markets = results.state === 'ready' ? results.markets : [];
  const expanded = open && results.state === 'ready';

  const pick = (market: MarketMatch): void => {
    setQuery(market.symbol);
    setOpen(false);
    onPick(market.symbol, market.type || null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'ArrowDown' && markets.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => Math.min(index + 1, markets.length - 1));
    } else if (event.key === 'ArrowUp' && markets.length > 0) {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === 'Enter' && expanded && markets[active]) {
      event.preventDefault();
      pick(markets[active]);
    } else if (event.key === 'Escape' && expanded) {
      // Closes the list only, not the dialog around it.
      event.stopPropagation();
      setOpen(false);
    }
  };

  const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="form-field alert-symbol">
      <label htmlFor={id} className="form-field__label">
        Symbol
      </label>
      <input
        ref={inputRef}
        id={id}
        name="symbol"
        className="form-field__input"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && markets[active] ? `${listId}-${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setOpen(true);
          // Typing a symbol by hand keeps it (the api says whether it exists); the type is unknown until picked.
          onPick(event.target.value.trim().toUpperCase(), null);
        }}
        onKeyDown={onKeyDown}
      />
      <p id={hintId} className="form-field__hint">
        {symbol && marketType ? `${symbol} · ${marketType}` : 'Search by symbol or name, e.g. BTC or Apple.'}
      </p>
      {results.state === 'loading' && open && <p className="form-field__hint">Searching…</p>}
      {results.state === 'failed' && <p className="form-field__error">Markets could not be searched: {results.message}</p>}
      {expanded && markets.length === 0 && <p className="form-field__hint">No market matches “{query.trim()}”.</p>}
      <ul id={listId} role="listbox" aria-label="Matching markets" className="alert-symbol__list" hidden={!expanded || markets.length === 0}>
        {markets.map((market, index) => (
          <li
            key={market.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={`alert-symbol__option${index === active ? ' alert-symbol__option--active' : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(market)}
          >
            <strong>{market.symbol}</strong> <span>{market.name}</span> <span className="alert-muted">{market.type}</span>
          </li>
        ))}
      </ul>
      {error && (
        <p id={errorId} className="form-field__error">
          {error}
        </p>
      )}
    </div>
  );
}

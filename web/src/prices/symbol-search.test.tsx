import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createRef, useState, type Ref } from 'react';
import { FakeAlertsApi } from '../../test/alerts-api';
import { installFetch, removeFetch } from '../../test/fake-fetch';
import type { MarketView } from '@tickerbell/jobs/prices/shapes';
import { SymbolSearch, type SymbolValue } from './symbol-search';

afterEach(removeFetch);

function searches(api: FakeAlertsApi): string[] {
  return api.requests.filter((request) => request.path.startsWith('/api/markets')).map((request) => request.path);
}

describe('SymbolSearch as a search box (watchlists, charts)', () => {
  it('picks on mouse down, once per press, and empties the box', async () => {
    const api = new FakeAlertsApi();
    installFetch(api.handler);
    const picked: string[] = [];
    render(<SymbolSearch label="Add a symbol" onSelect={(market) => picked.push(market.symbol)} />);
    const box = screen.getByRole('combobox', { name: 'Add a symbol' });

    fireEvent.change(box, { target: { value: 'btc' } });
    const option = await screen.findByRole('option', { name: /^BTCUSDT/ });
    expect(searches(api)).toEqual(['/api/markets?q=btc&limit=10']);
    fireEvent.mouseDown(option);
    fireEvent.click(option);

    expect(picked).toEqual(['BTCUSDT']);
    expect(box).toHaveValue('');
    expect(box).toHaveAttribute('aria-expanded', 'false');
  });

  it('moves through the options with the arrows (wrapping), picks with Enter, closes with Escape', async () => {
    installFetch(new FakeAlertsApi().handler);
    const picked: string[] = [];
    render(<SymbolSearch label="Open a symbol" onSelect={(market) => picked.push(market.symbol)} />);
    const box = screen.getByRole('combobox', { name: 'Open a symbol' });

    fireEvent.change(box, { target: { value: 'btc' } });
    await screen.findByRole('option', { name: /^BTCUSDT/ });
    expect(box).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: /^BTCUSDT\b/ }).id);
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(screen.getByRole('option', { name: /^BTCUSD\b/ })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box).toHaveAttribute('aria-expanded', 'false');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(box, { key: 'Enter' });

    expect(picked).toEqual(['BTCUSD']);
  });

  it('says when nothing matches and when the search failed', async () => {
    installFetch((path) => (path.includes('q=zzz') ? { status: 200, body: { markets: [] } } : { status: 500, body: { error: { code: 'internal_error', message: 'Boom' } } }));
    render(<SymbolSearch label="Add a symbol" onSelect={() => undefined} />);
    const box = screen.getByRole('combobox', { name: 'Add a symbol' });

    fireEvent.change(box, { target: { value: 'zzz' } });
    expect(await screen.findByText('No market matches “zzz”.')).toBeInTheDocument();
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    fireEvent.change(box, { target: { value: 'aapl' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Markets could not be searched: Boom');
  });
});

describe('SymbolSearch as a form field (the alert dialog)', () => {
  function Field({ initial, error, inputRef }: { initial: SymbolValue; error?: string; inputRef?: Ref<HTMLInputElement> }) {
    const [value, setValue] = useState(initial);
    const select = (market: MarketView) => setValue({ symbol: market.symbol, marketType: market.type });
    return <SymbolSearch label="Symbol" name="symbol" value={value} error={error} inputRef={inputRef} onSelect={select} onType={(text) => setValue({ symbol: text.toUpperCase(), marketType: null })} />;
  }

  it('shows its value without searching it, keeps a picked symbol in the box and names it in the hint', async () => {
    const api = new FakeAlertsApi();
    installFetch(api.handler);
    const inputRef = createRef<HTMLInputElement>();
    render(<Field initial={{ symbol: 'SPY', marketType: null }} inputRef={inputRef} />);
    const box = screen.getByRole('combobox', { name: 'Symbol' });
    expect(box).toHaveValue('SPY');
    expect(inputRef.current).toBe(box);
    expect(box).toHaveAccessibleDescription('Search by symbol or name, e.g. BTC or Apple.');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(searches(api)).toEqual([]);

    fireEvent.change(box, { target: { value: 'apple' } });
    fireEvent.click(await screen.findByRole('option', { name: /^AAPL/ }));

    expect(box).toHaveValue('AAPL');
    expect(box).toHaveAccessibleDescription('AAPL · stock');
    // The picked symbol is not searched again (the list stays closed).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(searches(api)).toEqual(['/api/markets?q=apple&limit=10']);
    expect(box).toHaveAttribute('aria-expanded', 'false');
  });

  it('announces its error and lets Escape close only the list', async () => {
    installFetch(new FakeAlertsApi().handler);
    const outer = jest.fn();
    render(
      <div onKeyDown={(event) => outer(event.key)}>
        <Field initial={{ symbol: '', marketType: null }} error="Pick a market." />
      </div>,
    );
    const box = screen.getByRole('combobox', { name: 'Symbol' });
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription(/Pick a market\./);

    fireEvent.change(box, { target: { value: 'btc' } });
    await screen.findByRole('option', { name: /^BTCUSDT/ });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(outer).not.toHaveBeenCalled();
    // With the list closed, Escape is the dialog's again.
    fireEvent.keyDown(box, { key: 'Escape' });
    await waitFor(() => expect(outer).toHaveBeenCalledWith('Escape'));
  });
});

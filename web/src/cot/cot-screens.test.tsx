import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { COT_RECORDINGS, recordedCotApi } from '../../test/cot-api';
import { removeFetch } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { cotLatestPath, parseCotHistory, parseCotLatest } from './cot-client';
import { nextSort, screenerQueryOf } from './cot-screener-page';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

type FetchMock = ReturnType<typeof installFakeApi>;

/** The COT api paths the page asked for, in order. */
function cotCalls(fetchMock: FetchMock): string[] {
  return fetchMock.mock.calls.map(([input]) => String(input)).filter((path) => path.startsWith('/api/cot/'));
}

async function screenerTable() {
  return within(await screen.findByRole('table', { name: 'Latest COT positioning of every instrument' }));
}

type Scope = ReturnType<typeof within>;

function rowOf(table: Scope, name: string): HTMLElement {
  const row = table.getByRole('rowheader', { name: new RegExp(name) }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

function symbolsIn(table: Scope): string[] {
  const rows: HTMLElement[] = table.getAllByRole('row');
  // The first two rows are the header (column groups, then columns).
  return rows.slice(2).map((row) => row.querySelector('.cot-symbol')?.textContent ?? '');
}

/** Extreme badges of a row: their text (as read aloud) and side class. */
function badgesIn(row: HTMLElement): [string, string][] {
  return [...row.querySelectorAll('.cot-badge:not(.cot-badge--provisional)')].map((badge) => [
    badge.textContent ?? '',
    [...badge.classList].find((name) => name === 'cot-badge--long' || name === 'cot-badge--short') ?? '',
  ]);
}

describe('COT client', () => {
  it('reads the recorded api answers, numbers as numbers and nulls kept', () => {
    const latest = parseCotLatest(COT_RECORDINGS.latest.body);
    expect(latest.items.map((item) => item.instrument.symbol)).toEqual(['BTC', 'ES', '6E', 'ZN']);
    expect(latest.items[2]).toMatchObject({ openInterest: 698570, netPercent: { leveraged: -3.17, assetManager: 29.56, commercial: -4.56 } });
    const history = parseCotHistory(COT_RECORDINGS.history26.body);
    expect(history.history).toHaveLength(26);
    expect(history.history.at(-1)?.positions.leveraged).toEqual({ long: 125609, short: 724278, spreading: 56698 });
    expect(history.history.at(-1)?.positions.nonReportable.spreading).toBeNull();
  });

  it('rejects a body that is not the api shape', () => {
    expect(() => parseCotLatest({ sort: 'name', order: 'asc', category: null, items: [{ instrument: {} }] })).toThrow(TypeError);
    expect(() => parseCotLatest({ sort: 'password', order: 'asc', category: null, items: [] })).toThrow('latest.sort');
  });

  it('builds the screener query from whitelisted values only', () => {
    expect(cotLatestPath(screenerQueryOf(new URLSearchParams('sort=divergenceScore&order=asc&category=rates')))).toBe(
      '/api/cot/latest?sort=divergenceScore&order=asc&category=rates',
    );
    expect(cotLatestPath(screenerQueryOf(new URLSearchParams('sort=password&order=up&category=metals&limit=5')))).toBe('/api/cot/latest?sort=name');
  });

  it('flips the order on the sorted column and starts another at its default', () => {
    expect(nextSort({ sort: 'name', order: 'asc' }, 'name')).toEqual({ sort: 'name', order: 'desc' });
    expect(nextSort({ sort: 'name', order: 'asc' }, 'leveragedPercentileRank')).toEqual({ sort: 'leveragedPercentileRank', order: 'desc' });
    expect(nextSort({ sort: 'divergenceScore', order: 'desc' }, 'symbol')).toEqual({ sort: 'symbol', order: 'asc' });
  });
});

describe('COT screener', () => {
  it('lists every instrument with net %, heat-coloured percentiles, extreme badges and divergence', async () => {
    const fetchMock = installFakeApi(signedInSession(), recordedCotApi());
    renderApp('/dashboard/cot');
    const table = await screenerTable();

    expect(cotCalls(fetchMock)).toEqual(['/api/cot/latest?sort=name']);
    expect(symbolsIn(table)).toEqual(['BTC', 'ES', '6E', 'ZN']);
    const zn = within(rowOf(table, 'UST 10Y NOTE'));
    expect(zn.getByText('ZN')).toBeInTheDocument();
    expect(zn.getByText('Rates')).toBeInTheDocument();
    expect(zn.getByText('2022-08-16')).toBeInTheDocument();
    expect(zn.getByText('−10.37%')).toBeInTheDocument();
    expect(zn.getByText('+26.14%')).toBeInTheDocument();
    expect(zn.getByText('−5.71%')).toBeInTheDocument();
    expect(zn.getByText('+20.42%')).toBeInTheDocument();
    // Percentile cells: the number, its step for the colour, and words for screen readers.
    expect(zn.getByText('3.03').closest('td')).toHaveClass('cot-heat--short-3');
    expect(zn.getByText('3.03').closest('td')).toHaveTextContent('3.03 (short extreme)');
    expect(zn.getByText('96.97').closest('td')).toHaveClass('cot-heat--long-3');
    expect(badgesIn(rowOf(table, 'UST 10Y NOTE'))).toEqual([
      ['Lev. short extreme', 'cot-badge--short'],
      ['AM long extreme', 'cot-badge--long'],
      ['Comm. long extreme', 'cot-badge--long'],
    ]);
    expect(zn.getByText('Leveraged crowded short, asset managers long')).toBeInTheDocument();
    expect(zn.getByText('High alert')).toHaveClass('cot-alert--high');
    expect(zn.getByText('CHICAGO BOARD OF TRADE · CFTC 043602')).toBeInTheDocument();
    expect(zn.getByText(/score −93\.94/)).toBeInTheDocument();

    const euro = within(rowOf(table, 'EURO FX'));
    expect(euro.getByText('39.39').closest('td')).toHaveClass('cot-heat--short-1');
    expect(euro.getByText('75.76').closest('td')).toHaveClass('cot-heat--long-2');
    expect(badgesIn(rowOf(table, 'EURO FX'))).toEqual([['AM short extreme', 'cot-badge--short']]);
    expect(euro.getByText('No alert')).toBeInTheDocument();
    expect(table.getByRole('link', { name: 'E-MINI S&P 500' })).toHaveAttribute('href', '/dashboard/cot/13874A');
    expect(screen.getByText(/Lookback: 156 reports/)).toBeInTheDocument();
    expect(table.queryByText('Provisional')).not.toBeInTheDocument();
  });

  it('marks provisional analytics (fewer than 26 reports of history)', async () => {
    installFakeApi(signedInSession(), recordedCotApi([COT_RECORDINGS.latestProvisional]));
    renderApp('/dashboard/cot');
    const table = await screenerTable();

    expect(table.getAllByText('Provisional')).toHaveLength(4);
    const euro = within(rowOf(table, 'EURO FX'));
    expect(euro.getByText('2022-05-31')).toBeInTheDocument();
    expect(euro.getByText('Provisional')).toHaveAttribute('title', expect.stringContaining('Fewer than 26 reports'));
  });

  it('labels the bundled sample with its report date, and dims a row too short to rank', async () => {
    const recorded = COT_RECORDINGS.latestProvisional;
    const body = recorded.body as { items: { instrument: { name: string }; percentileRank: Record<string, unknown> }[] };
    const items = body.items.map((item) =>
      item.instrument.name.startsWith('EURO FX') ? { ...item, percentileRank: { leveraged: null, commercial: null, assetManager: null } } : item,
    );
    const sample = { ...recorded, body: { ...body, items, data: { latestReportDate: '2022-05-31', sample: true, stale: true } } };
    installFakeApi(signedInSession(), recordedCotApi([sample]));
    renderApp('/dashboard/cot');
    const table = await screenerTable();

    const banner = screen.getByRole('note', { name: '' });
    expect(banner).toHaveTextContent('Sample data: the bundled CFTC reports up to 2022-05-31');
    const euro = rowOf(table, 'EURO FX');
    expect(euro).toHaveClass('cot-row--unranked');
    expect(within(euro).getByText('Too little history to rank')).toBeInTheDocument();
    expect(rowOf(table, 'BITCOIN')).not.toHaveClass('cot-row--unranked');
  });

  it('sorts through the api: a column click sends sort and order, a second click flips the order', async () => {
    const fetchMock = installFakeApi(signedInSession(), recordedCotApi());
    const router = renderApp('/dashboard/cot');
    const table = await screenerTable();

    fireEvent.click(table.getByRole('button', { name: 'Leveraged funds percentile rank' }));
    await waitFor(() => expect(symbolsIn(table)).toEqual(['BTC', '6E', 'ZN', 'ES']));
    expect(cotCalls(fetchMock).at(-1)).toBe('/api/cot/latest?sort=leveragedPercentileRank&order=desc');
    expect(table.getByRole('button', { name: 'Leveraged funds percentile rank' }).closest('th')).toHaveAttribute('aria-sort', 'descending');
    expect(router.state.location.search).toBe('?sort=leveragedPercentileRank&order=desc');

    fireEvent.click(table.getByRole('button', { name: 'Leveraged funds percentile rank' }));
    await waitFor(() => expect(symbolsIn(table)).toEqual(['ZN', 'ES', '6E', 'BTC']));
    expect(cotCalls(fetchMock).at(-1)).toBe('/api/cot/latest?sort=leveragedPercentileRank&order=asc');
    expect(table.getByRole('button', { name: 'Leveraged funds percentile rank' }).closest('th')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('filters by category through the api', async () => {
    const fetchMock = installFakeApi(signedInSession(), recordedCotApi());
    renderApp('/dashboard/cot');
    const table = await screenerTable();

    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'crypto' } });
    await waitFor(() => expect(symbolsIn(table)).toEqual(['BTC']));
    expect(cotCalls(fetchMock).at(-1)).toBe('/api/cot/latest?sort=name&category=crypto');
  });

  it('is public at /research/cot/screener, linked from the definitions, with public instrument links', async () => {
    installFakeApi(null, recordedCotApi());
    const router = renderApp('/research/cot');
    fireEvent.click(await screen.findByRole('link', { name: 'COT screener' }));
    const table = await screenerTable();

    expect(router.state.location.pathname).toBe('/research/cot/screener');
    expect(screen.getByRole('heading', { level: 1, name: 'COT screener' })).toBeInTheDocument();
    expect(table.getByRole('link', { name: 'BITCOIN' })).toHaveAttribute('href', '/research/cot/133741');
  });

  it('is in the dashboard navigation', async () => {
    installFakeApi(signedInSession(), recordedCotApi());
    renderApp('/dashboard/cot');
    const nav = within(await screen.findByRole('navigation', { name: 'Dashboard' }));

    expect(nav.getByRole('link', { name: 'COT' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('COT instrument page', () => {
  it('shows the latest report by group and the three charts over 156 weeks by default', async () => {
    const fetchMock = installFakeApi(signedInSession(), recordedCotApi());
    renderApp('/dashboard/cot/13874A');

    expect(await screen.findByRole('heading', { level: 1, name: 'ES · E-MINI S&P 500' })).toBeInTheDocument();
    // The dashboard page also asks whether the user follows the instrument.
    expect(cotCalls(fetchMock)).toEqual(['/api/cot/instruments/13874A/history?weeks=156', '/api/cot/follows']);
    expect(screen.getByRole('heading', { name: /Latest report: 2022-08-16/ })).toBeInTheDocument();
    const latest = within(screen.getByRole('table', { name: /Positions by trader group/ }));
    const leveraged = within(latest.getByRole('rowheader', { name: 'Leveraged funds' }).closest('tr') as HTMLElement);
    expect(leveraged.getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      '125,609',
      '724,278',
      '56,698',
      '−598,669',
      '−25.52%',
      '3.03 (short extreme)',
      '0',
      'short extreme',
    ]);
    const commercial = within(latest.getByRole('rowheader', { name: /Commercial/ }).closest('tr') as HTMLElement);
    // dealer + asset manager: 538,487 + 988,150 long, 168,060 + 612,060 short.
    expect(commercial.getAllByRole('cell').slice(0, 5).map((cell) => cell.textContent)).toEqual(['1,526,637', '780,120', '290,213', '746,517', '+31.82%']);
    expect(screen.getByText('Open interest', { selector: 'dt' }).nextElementSibling).toHaveTextContent('2,346,224');

    for (const name of ['Net positions by group (contracts, long − short)', 'Percentile rank by group', 'Open interest (contracts)']) {
      const chart = screen.getByRole('img', { name });
      expect(chart.tagName.toLowerCase()).toBe('svg');
      expect(chart).toHaveAccessibleDescription(/33 weekly reports from 2022-01-04 to 2022-08-16/);
    }
    expect(screen.getByRole('img', { name: 'Open interest (contracts)' }).querySelectorAll('rect.cot-bar')).toHaveLength(33);
    // The first 25 reports of the sample have under 26 reports of history.
    const ranks = screen.getByRole('img', { name: 'Percentile rank by group' });
    expect(ranks.querySelectorAll('.cot-chart__shade')).toHaveLength(1);
    expect(ranks).toHaveAccessibleDescription(/Provisional \(under 26 reports of history\) from 2022-01-04 to 2022-06-21\./);
    const rankTable = within(screen.getByRole('table', { name: 'Percentile rank by group' }));
    expect(rankTable.getAllByRole('row')).toHaveLength(34);
    expect(screen.getByText(/33 weekly reports stored for this market, from 2022-01-04/)).toBeInTheDocument();
  });

  it('switches the chart range through the api: 26 weeks, then all history', async () => {
    const fetchMock = installFakeApi(null, recordedCotApi());
    const router = renderApp('/research/cot/13874A');
    await screen.findByRole('img', { name: 'Open interest (contracts)' });

    fireEvent.click(screen.getByRole('radio', { name: '26 weeks' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'Open interest (contracts)' }).querySelectorAll('rect.cot-bar')).toHaveLength(26));
    expect(cotCalls(fetchMock).at(-1)).toBe('/api/cot/instruments/13874A/history?weeks=26');
    expect(screen.getByRole('radio', { name: '26 weeks' })).toBeChecked();
    expect(router.state.location.search).toBe('?weeks=26');
    expect(screen.getByRole('img', { name: 'Percentile rank by group' })).toHaveAccessibleDescription(/26 weekly reports from 2022-02-22 to 2022-08-16/);

    fireEvent.click(screen.getByRole('radio', { name: 'All history' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'Open interest (contracts)' }).querySelectorAll('rect.cot-bar')).toHaveLength(33));
    expect(cotCalls(fetchMock).at(-1)).toBe('/api/cot/instruments/13874A/history?weeks=1040');
    expect(router.state.location.search).toBe('?weeks=all');
  });

  it('draws the COT index instead of the percentile rank on request, with the 90/10 bands', async () => {
    installFakeApi(null, recordedCotApi());
    renderApp('/research/cot/13874A?weeks=52');
    const percentile = await screen.findByRole('img', { name: 'Percentile rank by group' });
    expect(percentile.querySelectorAll('.cot-chart__band')).toHaveLength(2);

    fireEvent.click(screen.getByRole('radio', { name: 'COT index' }));

    const index = screen.getByRole('img', { name: 'COT index by group' });
    expect(index).toHaveAccessibleDescription(/Leveraged funds 0, Asset managers 34\.16, Commercial 100\./);
    expect(screen.getByRole('radio', { name: '52 weeks' })).toBeChecked();
  });

  it('answers an unknown code with a not-found message and a way back', async () => {
    installFakeApi(signedInSession(), recordedCotApi());
    renderApp('/dashboard/cot/999999');

    expect(await screen.findByRole('heading', { level: 1, name: 'COT instrument not found' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('No COT instrument with code 999999');
    expect(screen.getByRole('link', { name: 'Back to the COT screener' })).toHaveAttribute('href', '/dashboard/cot');
    await act(async () => undefined);
  });
});

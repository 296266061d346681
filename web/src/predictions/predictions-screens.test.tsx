import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { currentChart, liveSeries, resetFakeCharts } from '../../test/chart-library';
import { removeFetch } from '../../test/fake-fetch';
import { PERFORMANCE_EMPTY, predictionsApi } from '../../test/predictions-api';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { formatProbability, formatScore, oddsOf, previewForecast } from './predictions-client';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

beforeEach(() => {
  window.localStorage.clear();
  resetFakeCharts();
});
afterEach(removeFetch);

const rowsOf = (table: HTMLElement): HTMLElement[] => within(table).getAllByRole('row').slice(1);
const cell = (row: HTMLElement, label: string): string => row.querySelector(`td[data-label="${label}"]`)?.textContent ?? '';

describe('the forecast input, as the api reads it', () => {
  it('reads probabilities, percentages and odds, and refuses certainty and nonsense', () => {
    expect(previewForecast('0.62')).toEqual({ ok: true, p: 0.62, form: 'probability' });
    expect(previewForecast('.62')).toEqual({ ok: true, p: 0.62, form: 'probability' });
    expect(previewForecast('62%')).toEqual({ ok: true, p: 0.62, form: 'percent' });
    expect(previewForecast('62 %')).toEqual({ ok: true, p: 0.62, form: 'percent' });
    expect(previewForecast('62')).toEqual({ ok: true, p: 0.62, form: 'percent' });
    expect(previewForecast('3:2')).toEqual({ ok: true, p: 0.6, form: 'odds' });
    expect(previewForecast('3/2')).toEqual({ ok: true, p: 0.6, form: 'odds' });
    expect(previewForecast('1 to 2')).toEqual({ ok: true, p: 0.3333, form: 'odds' });
    expect(previewForecast('')).toEqual({ ok: null });
    for (const bad of ['0', '1', '100', '1.5e2', 'abc', '0:3', '99.999%', '-0.2']) expect([bad, previewForecast(bad).ok]).toEqual([bad, false]);
    expect(oddsOf(0.6)).toBe('3:2');
    expect(oddsOf(0.25)).toBe('1:3');
    expect(oddsOf(0.62)).toBe('1.63:1');
    expect(formatProbability('0.6150')).toBe('61.5%');
    expect(formatProbability('0.6200')).toBe('62%');
    expect(formatProbability('0.0035')).toBe('0.35%');
    expect(formatScore(-0.5412)).toBe('−0.541');
    expect(formatScore(0.019, { signed: true })).toBe('+0.019');
  });
});

describe('predictions screens', () => {
  it('browses the markets: prices as probabilities, replay label, filters in the address bar, more pages', async () => {
    const api = predictionsApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/predictions');
    expect(await screen.findByRole('heading', { level: 1, name: 'Prediction markets' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Prediction markets' });
    const [fed, btc] = rowsOf(table) as [HTMLElement, HTMLElement];
    expect(within(fed).getByRole('link', { name: 'Will the Fed cut rates in June?' })).toHaveAttribute('href', '/dashboard/predictions/markets/101');
    expect(cell(fed, 'YES')).toBe('61.5%61% / 62%');
    expect(cell(fed, '24 h volume')).toBe('$1.3M');
    expect(cell(btc, 'Liquidity')).toBe('$95K');
    expect(screen.getByRole('note')).toHaveTextContent('Replay data');

    fireEvent.click(screen.getByRole('button', { name: 'Load more markets' }));
    await waitFor(() => expect(rowsOf(screen.getByRole('table', { name: 'Prediction markets' }))).toHaveLength(3));
    expect(cell(rowsOf(screen.getByRole('table', { name: 'Prediction markets' }))[2]!, 'YES')).toBe('Resolved YES');

    const form = within(screen.getByRole('search', { name: 'Market filters' }));
    fireEvent.change(form.getByLabelText('Category'), { target: { value: 'Crypto' } });
    fireEvent.change(form.getByLabelText('Sort by'), { target: { value: 'liquidity' } });
    fireEvent.click(form.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(rowsOf(screen.getByRole('table', { name: 'Prediction markets' }))).toHaveLength(1));
    expect(api.calls).toContain('GET /api/predictions/markets?category=Crypto&sort=liquidity');
    expect(screen.getByText(/Showing open markets in Crypto by liquidity/)).toBeInTheDocument();
  });

  it('shows a failed request with Try again, and an empty list with its reason', async () => {
    let fail = true;
    const api = predictionsApi({
      'GET /api/predictions/markets': () =>
        fail ? { status: 503, body: { error: { code: 'database_unavailable', message: 'The database is unavailable; try again shortly', requestId: 'r' } } } : { status: 200, body: { rows: [], nextCursor: null, categories: [], source: { kind: 'live', lastSyncAt: null } } },
    });
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/predictions');
    expect(await screen.findByRole('alert')).toHaveTextContent('The markets could not be loaded: The database is unavailable; try again shortly');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No open market is stored yet/)).toBeInTheDocument();
    expect(screen.getByText(/Live Polymarket markets/)).toHaveTextContent('Not synced yet.');
  });

  it('opens a market: figures, chart from snapshots with the consensus, mispricing; a forecast as 3:2 joins the history', async () => {
    const api = predictionsApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/predictions/markets/101');
    expect(await screen.findByRole('heading', { level: 1, name: 'Will the Fed cut rates in June?' })).toBeInTheDocument();
    expect(screen.getByText('Consensus').nextSibling).toHaveTextContent('70%8 forecasters');
    const [line] = liveSeries(currentChart(), 'Line');
    expect(line!.data).toEqual([
      { time: Date.parse('2026-03-11T11:30:00Z') / 1000, value: 60 },
      { time: Date.parse('2026-03-11T11:45:00Z') / 1000, value: 61 },
      { time: Date.parse('2026-03-11T12:00:00Z') / 1000, value: 61.5 },
    ]);
    expect(line!.priceLines).toEqual([expect.objectContaining({ price: 70, title: 'Consensus' })]);
    expect(within(screen.getByRole('list', { name: 'Active mispricing alerts of this market' })).getByRole('listitem')).toHaveTextContent(
      'Forecaster consensus fair value 70% against 62%: +6.0 pts after fees',
    );
    expect(screen.getByText(/No forecast yet/)).toBeInTheDocument();

    const form = within(screen.getByRole('form', { name: 'Your forecast' }));
    const input = form.getByLabelText('Your probability of Yes');
    fireEvent.change(input, { target: { value: 'abc' } });
    expect(form.getByText(/Type a probability \(0\.62\), a percentage \(62%\) or odds \(3:2\)/)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    fireEvent.change(input, { target: { value: '3:2' } });
    expect(input.getAttribute('aria-describedby')).toContain(form.getByText(/read as odds/).id);
    expect(form.getByText(/read as odds/)).toHaveTextContent('= 60% for Yes (odds 3:2, read as odds) · market 61.5%');
    fireEvent.click(form.getByRole('button', { name: 'Save forecast' }));
    expect(await screen.findByText('Saved: 60% for Yes (the market was at 61.5%).')).toBeInTheDocument();
    expect(api.bodies).toEqual([{ prediction: '3:2', confidence: null, notes: null }]);
    const history = within(screen.getByRole('table', { name: 'Your forecasts on this market, newest first' }));
    const [row] = history.getAllByRole('row').slice(1) as [HTMLElement];
    expect(cell(row, 'Yours')).toBe('60%typed “3:2”');
    expect(cell(row, 'Market then')).toBe('61.5%');
    expect(cell(row, 'Gap')).toBe('−1.5 pts');
    expect(cell(row, 'Status')).toBe('Current');
    expect(screen.getByRole('button', { name: 'Update forecast' })).toBeInTheDocument();
  });

  it('shows the api’s refusals beside their fields, and follows the market', async () => {
    const api = predictionsApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/predictions/markets/101');
    const form = within(await screen.findByRole('form', { name: 'Your forecast' }));
    fireEvent.change(form.getByLabelText('Your probability of Yes'), { target: { value: '0.5' } });
    fireEvent.click(form.getByRole('button', { name: 'Save forecast' }));
    expect(await form.findByText('a probability strictly between 0 and 1 (0.0001 to 0.9999)')).toBeInTheDocument();
    expect(form.getByRole('alert')).toHaveTextContent('Check the field marked below.');
    expect(form.getByLabelText('Your probability of Yes')).toHaveAccessibleDescription(expect.stringContaining('a probability strictly between 0 and 1'));

    fireEvent.change(form.getByLabelText('Your probability of Yes'), { target: { value: '3:2' } });
    fireEvent.change(form.getByLabelText(/Notes/), { target: { value: 'x'.repeat(1001) } });
    fireEvent.click(form.getByRole('button', { name: 'Save forecast' }));
    expect(await form.findByText('at most 1000 characters')).toBeInTheDocument();
    expect(form.getByText('1001 / 1000 characters')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Follow market' }));
    expect(await screen.findByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls).toContain('POST /api/predictions/follows');
    expect(api.bodies.at(-1)).toEqual({ marketId: 101 });
  });

  it('replaces the form of a closed market with its resolution and the viewer’s points; an unknown market says so', async () => {
    installFakeApi(signedInSession(), predictionsApi());
    renderApp('/dashboard/predictions/markets/103');
    expect(await screen.findByRole('heading', { level: 1, name: 'Katana FDV above $1B one day after launch?' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Your forecast' })).not.toBeInTheDocument();
    const resolution = screen.getByRole('group', { name: 'Resolution' });
    expect(resolution).toHaveTextContent('Resolved YES on 3 Mar 2026.');
    expect(resolution).toHaveTextContent('Your points on this market: +5.0');
    const rows = rowsOf(screen.getByRole('table', { name: 'Your forecasts on this market, newest first' }));
    expect(rows.map((row) => [cell(row, 'Status'), cell(row, 'Points')])).toEqual([
      ['Current', '+6.5'],
      ['Replaced20 Feb 2026, 09:00 UTC', '−1.5'],
    ]);
    expect(screen.getByText(/No price snapshot yet/)).toBeInTheDocument();
  });

  it('says so for a market that does not exist', async () => {
    installFakeApi(signedInSession(), predictionsApi());
    renderApp('/dashboard/predictions/markets/999');
    expect(await screen.findByText(/No such market/)).toBeInTheDocument();
  });

  it('reads the performance: accuracy beside Brier and log with the market’s and the skill, the calibration plot, scores by month, categories', async () => {
    installFakeApi(signedInSession(), predictionsApi());
    renderApp('/dashboard/predictions/performance');
    expect(await screen.findByText(/You beat the market: your Brier score is 0\.019 lower/)).toBeInTheDocument();
    const score = (name: string) => screen.getByText(name, { selector: 'dt' }).nextSibling as HTMLElement;
    expect(score('Accuracy')).toHaveTextContent('66.7%8 of 12 resolved forecasts on the side that happened');
    expect(score('Brier score')).toHaveTextContent('0.182market 0.201 · skill +0.019');
    expect(score('Log score')).toHaveTextContent('−0.541market −0.588 · skill +0.047');
    const plot = screen.getByTestId('calibration-plot');
    expect(plot.querySelectorAll('circle.pm-svg__point')).toHaveLength(3);
    expect(plot.querySelectorAll('line.pm-svg__interval')).toHaveLength(9);
    expect(plot.querySelector('line.pm-svg__diagonal')).not.toBeNull();
    expect(plot.querySelector('desc')).toHaveTextContent('forecasts 60% to 70%: 5, mean 66%, happened 60% (95 % interval 23.1% to 88.2%)');
    expect(screen.getByTestId('trend-brier').querySelectorAll('circle')).toHaveLength(6);
    expect(within(screen.getByRole('table', { name: 'Categories where you beat the market' })).getByRole('row', { name: /Crypto/ })).toHaveTextContent('+0.040');
    expect(within(screen.getByRole('table', { name: 'Categories where the market beat you' })).getByRole('row', { name: /Economy/ })).toHaveTextContent('−0.015');
    const forecasts = rowsOf(await screen.findByRole('table', { name: 'Your current forecasts, newest first' }));
    expect(forecasts.map((row) => cell(row, 'Outcome'))).toEqual(['Resolved YES', 'Open · now 61.5%']);
  });

  it('shows the empty scorecard before any resolution', async () => {
    installFakeApi(signedInSession(), predictionsApi({ 'GET /api/predictions/performance': { status: 200, body: PERFORMANCE_EMPTY } }));
    renderApp('/dashboard/predictions/performance');
    expect(await screen.findByRole('heading', { level: 2, name: 'No resolved forecast yet' })).toBeInTheDocument();
    expect(screen.queryByTestId('calibration-plot')).not.toBeInTheDocument();
  });

  it('lists the mispricing alerts with their fair value source, and follows a category', async () => {
    const api = predictionsApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/predictions/mispricing');
    const rows = rowsOf(await screen.findByRole('table', { name: 'Open mispricing alerts' }));
    expect(rows.map((row) => [cell(row, 'Gap after fees'), cell(row, 'Price → fair value')])).toEqual([
      ['+6.0 pts', '62% → 70%'],
      ['−5.0 pts', '35% → 28%'],
    ]);
    expect(cell(rows[1]!, 'Fair value from')).toContain('Event consistency');
    const follows = within(await screen.findByRole('list', { name: 'Your follows' }));
    expect(follows.getByRole('link', { name: 'Katana FDV above $1B one day after launch?' })).toBeInTheDocument();
    const form = within(screen.getByRole('form', { name: 'Follow a category' }));
    await waitFor(() => expect(form.getByRole('option', { name: 'Crypto' })).toBeInTheDocument());
    fireEvent.change(form.getByLabelText('Category'), { target: { value: 'Crypto' } });
    fireEvent.click(form.getByRole('button', { name: 'Follow category' }));
    expect(await screen.findByText('Following Crypto.')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Your follows' })).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: /Unfollow Katana/ }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your follows' })).getAllByRole('listitem')).toHaveLength(1));
    expect(api.calls).toContain('DELETE /api/predictions/follows/41');
  });
});

describe('research predictions page (public)', () => {
  it('shows a visitor the markets now, the open alerts and how the community scores against the market', async () => {
    installFakeApi(null, predictionsApi());
    renderApp('/research/predictions');
    expect(await screen.findByRole('heading', { level: 1, name: 'Prediction markets' })).toBeInTheDocument();
    const trending = await screen.findByRole('table', { name: 'Active markets with the most 24 hour volume' });
    expect(rowsOf(trending).map((row) => cell(row, 'Market'))).toEqual([expect.stringContaining('Fed'), expect.stringContaining('Bitcoin')]);
    expect(screen.getByText('No active market ends within the next 7 days.')).toBeInTheDocument();
    expect(rowsOf(screen.getByRole('table', { name: 'Open mispricing alerts' }))).toHaveLength(2);
    expect(screen.getByText(/Tickerbell’s forecasters beat the market price/)).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Replay data');
  });
});

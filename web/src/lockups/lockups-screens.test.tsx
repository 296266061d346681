import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LockupCalendarResponse, LockupEventDetail, LockupEventView, LockupFollowView, LockupRiskFactorView } from '@tickerbell/jobs/lockups/shapes';
import { removeFetch, type FakeHandler, type FakeReply } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { calendarStateOf, localToday } from './lockups-client';
import { monthWeeks } from './lockups-calendar-page';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

// The lockups api as these screens see it: answers typed by jobs/src/lockups/lockups.shapes.ts,
// with values in the manner of the recorded ABNB prospectus (90-day staged release, a 33 % price
// trigger) as the discovery stores them. A request with no answer fails the test loudly.
const factor = (name: LockupRiskFactorView['name'], label: string, points: number, weight: number, input: string | null, source: string): LockupRiskFactorView => ({
  name,
  label,
  points,
  weight,
  value: weight ? points / weight : 0,
  input,
  source,
  known: input !== null,
});
const FACTORS = [
  factor('floatUnlock', 'Share of float unlocking', 25, 25, '40 % of the float unlocks', 'Field & Hanka (2001)'),
  factor('vcBacked', 'VC-backed', 25, 25, 'VC-backed (named in the prospectus)', 'Brav & Gompers (2003)'),
  factor('runUp', 'Run-up since IPO', 8.4, 20, 'Up 42 % since the IPO price', 'Bradley et al. (2001)'),
  factor('volume', 'Recent volume', 0, 10, null, 'Field & Hanka (2001)'),
];

const event = (fields: Partial<LockupEventView> & Pick<LockupEventView, 'id' | 'ticker' | 'companyName' | 'lockupExpirationDate' | 'riskScore'>): LockupEventView => ({
  ipoDate: '2026-09-10',
  tranche: 1,
  tranches: 1,
  trancheLabel: null,
  sharesLockedUp: '240000000',
  totalSharesOutstanding: '600000000',
  floatShare: 0.4,
  ipoPrice: '68',
  currentPrice: '96.5',
  marketCap: '57900000000',
  vcBacked: true,
  industry: 'Technology',
  status: 'scheduled',
  dataSource: 'simulated',
  topFactors: FACTORS.slice(0, 2),
  ...fields,
});

const ACME_1 = event({ id: 11, ticker: 'ACME', companyName: 'Acme Cloud, Inc.', lockupExpirationDate: '2026-12-09', riskScore: 58.4, tranche: 1, tranches: 2, trancheLabel: 'Day 1 (first trading day)', sharesLockedUp: '60000000', floatShare: 0.1 });
const ACME_2 = event({ id: 12, ticker: 'ACME', companyName: 'Acme Cloud, Inc.', lockupExpirationDate: '2026-12-09', riskScore: 81, tranche: 2, tranches: 2, trancheLabel: '90 days' });
const BIOX = event({ id: 13, ticker: 'BIOX', companyName: 'Biox Therapeutics', lockupExpirationDate: '2026-12-21', riskScore: 22, vcBacked: false, industry: 'Biotechnology', floatShare: 0.05, sharesLockedUp: '5000000', dataSource: 'sec', topFactors: [factor('sector', 'High-tech or biotech', 15, 15, 'Biotechnology', 'Bradley et al. (2001)')] });
const UNREAD = event({ id: 14, ticker: 'UNRD', companyName: 'Unread Corp', lockupExpirationDate: null, riskScore: 0, status: 'needs_review', dataSource: 'sec-replay', topFactors: [] });

const SOURCE = { mode: 'replay' as const, lastDiscoveryAt: '2026-11-27T06:00:00.000Z' };
const DECEMBER: LockupCalendarResponse = { from: '2026-12-01', to: '2026-12-31', events: [ACME_1, ACME_2, BIOX], review: [UNREAD], industries: ['Biotechnology', 'Technology'], source: SOURCE };

const DETAIL: LockupEventDetail = {
  ...ACME_2,
  cik: '0001559720',
  lockupDays: 90,
  sharesOffered: '50000000',
  underwriters: ['Morgan Stanley', 'Goldman Sachs & Co. LLC'],
  boundParties: 'our directors, executive officers and holders of substantially all of our outstanding capital stock',
  clause: 'We and all of our directors and executive officers ... have agreed that, without the prior written consent of Morgan Stanley & Co. LLC ..., we and they will not ... offer, sell, contract to sell ...',
  sourceAccession: '0001193125-26-000001',
  sourceUrl: 'https://www.sec.gov/Archives/edgar/data/1559720/000119312526000001/d81668d424b4.htm',
  reviewReason: null,
  earlyRelease: [{ description: 'if the closing price is at least 33% above the IPO price for 10 of 15 trading days', priceMultiple: 1.33, days: 10, windowDays: 15, sharePct: 0.25, metOn: null }],
  factors: FACTORS,
  prices: [
    { date: '2026-09-10', close: '77.5', volume: '90000000' },
    { date: '2026-10-15', close: '88', volume: '12000000' },
    { date: '2026-11-26', close: '96.5', volume: '9000000' },
  ],
  pricesSource: 'simulated',
  siblings: [{ id: 11, lockupExpirationDate: '2026-12-09', sharesLockedUp: '60000000', tranche: 1 }],
};

const FOLLOW_RISK: LockupFollowView = { id: 71, kind: 'risk', ticker: null, minRiskScore: 70, noticeDays: [7], createdAt: '2026-11-01T00:00:00.000Z' };

function lockupsApi(first: Record<string, FakeReply> = {}): FakeHandler & { calls: string[]; bodies: Record<string, unknown[]> } {
  const calls: string[] = [];
  const bodies: Record<string, unknown[]> = {};
  let follows: LockupFollowView[] = [FOLLOW_RISK];
  let next = 100;
  const handler = (path: string, init?: RequestInit): FakeReply => {
    const method = init?.method ?? 'GET';
    const key = `${method} ${path}`;
    if (!path.startsWith('/api/lockups')) return { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
    calls.push(key);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    if (body) (bodies[key] ??= []).push(body);
    if (first[key]) return first[key]!;
    if (key.startsWith('GET /api/lockups/calendar')) {
      const query = new URLSearchParams(path.split('?')[1]);
      const minRisk = Number(query.get('minRisk') ?? 0);
      return { status: 200, body: { ...DECEMBER, from: query.get('from'), to: query.get('to'), events: query.get('from') === '2026-12-01' ? DECEMBER.events.filter((e) => e.riskScore >= minRisk) : [] } };
    }
    if (key === 'GET /api/lockups/events/12') return { status: 200, body: DETAIL };
    if (key === 'GET /api/lockups/research') return { status: 200, body: { from: '2026-11-27', to: '2026-12-27', events: [ACME_1, ACME_2, BIOX], source: SOURCE } };
    if (key === 'GET /api/lockups/follows') return { status: 200, body: follows };
    if (key === 'POST /api/lockups/follows') {
      const created: LockupFollowView = { id: next++, kind: body!.kind as 'ticker', ticker: (body!.ticker as string | undefined) ?? null, minRiskScore: null, noticeDays: (body!.noticeDays as [14]) ?? [14, 7, 1], createdAt: '2026-11-27T00:00:00.000Z' };
      follows = [...follows, created];
      return { status: 201, body: created };
    }
    if (method === 'PATCH' && path.startsWith('/api/lockups/follows/')) {
      const id = Number(path.split('/').pop());
      follows = follows.map((f) => (f.id === id ? { ...f, ...body } : f));
      return { status: 200, body: follows.find((f) => f.id === id) };
    }
    if (method === 'DELETE' && path.startsWith('/api/lockups/follows/')) return { status: 204 };
    if (key.startsWith('GET /api/lockups/events/')) return { status: 404, body: { error: { code: 'not_found', message: 'No lock-up event' } } };
    throw new Error(`no lockups answer for ${key}`);
  };
  return Object.assign(handler, { calls, bodies });
}

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const cell = (row: HTMLElement, label: string) => (row.querySelector(`td[data-label="${label}"]`)?.textContent ?? '').replace(/\u00a0/g, ' ');

describe('lockups calendar', () => {
  it('marks expiry days with their count and highest risk, lists a day, switches to the list, filters through the address bar, follows a ticker', async () => {
    const api = lockupsApi();
    installFakeApi(signedInSession(), api);
    const router = renderApp('/dashboard/lockups?month=2026-12');
    expect(await screen.findByRole('heading', { level: 1, name: 'IPO lock-up expirations' })).toBeInTheDocument();
    const grid = await screen.findByRole('table', { name: 'Lock-up expiries in December 2026' });
    expect(within(grid).getByRole('button', { name: 'Wed, Dec 9: 2 expiries, highest risk 81 (high)' })).toBeInTheDocument();
    fireEvent.click(within(grid).getByRole('button', { name: 'Mon, Dec 21: 1 expiry, highest risk 22 (low)' }));
    const day = await screen.findByRole('table', { name: 'Lock-ups expiring Dec 21, 2026' });
    expect(router.state.location.search).toBe('?month=2026-12&day=2026-12-21');
    const [biox] = rowsOf(day) as [HTMLElement];
    expect(cell(biox, 'Company')).toContain('BIOXBiox TherapeuticsIPO Sep 10, 2026 · Biotechnology');
    expect(cell(biox, 'Of float')).toBe('5 %');
    expect(cell(biox, 'Risk')).toBe('22Low');
    expect(cell(biox, 'Status')).toBe('ScheduledSEC');
    expect(screen.getByRole('note')).toHaveTextContent('Replay data Offline demo');

    // The list view: the whole month, by date then risk; tranches named.
    fireEvent.click(screen.getByRole('button', { name: 'List' }));
    const list = await screen.findByRole('table', { name: 'Lock-ups expiring in December 2026' });
    expect(rowsOf(list).map((row) => cell(row, 'Company').slice(0, 4))).toEqual(['ACME', 'ACME', 'BIOX']);
    expect(cell(rowsOf(list)[0]!, 'Expiry')).toContain('Tranche 2 of 2 · 90 days');
    expect(cell(rowsOf(list)[0]!, 'Top factors')).toBe('Share of float unlocking +25VC-backed +25');

    // Needs review: apart, with no date.
    const review = within(screen.getByRole('region', { name: 'Needs review (1)' }));
    expect(review.getByRole('link', { name: 'UNRD' })).toHaveAttribute('href', '/dashboard/lockups/14');

    fireEvent.change(screen.getByLabelText('Minimum risk'), { target: { value: '70' } });
    await waitFor(() => expect(rowsOf(screen.getByRole('table', { name: 'Lock-ups expiring in December 2026' }))).toHaveLength(1));
    expect(router.state.location.search).toBe('?view=list&month=2026-12&minRisk=70');

    fireEvent.click(within(screen.getByRole('table', { name: 'Lock-ups expiring in December 2026' })).getByRole('button', { name: 'Follow ACME' }));
    expect(await screen.findByRole('button', { name: 'Following ACME: stop' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.bodies['POST /api/lockups/follows']).toEqual([{ kind: 'ticker', ticker: 'ACME', noticeDays: [14, 7, 1] }]);
    const follows = within(screen.getByRole('list', { name: 'Your follows' }));
    expect(follows.getByText('Risk 70 or more')).toBeInTheDocument();
    expect(follows.getByText('ACME')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.startsWith('GET /api/lockups/calendar'))).toEqual([
      'GET /api/lockups/calendar?from=2026-12-01&to=2026-12-31',
      'GET /api/lockups/calendar?from=2026-12-01&to=2026-12-31&minRisk=70',
    ]);
  });

  it('changes the “above a score” follow, and shows the empty and error states', async () => {
    const api = lockupsApi({ 'GET /api/lockups/calendar?from=2026-12-01&to=2026-12-31&vcBacked=true': { status: 503, body: { error: { code: 'unavailable', message: 'The database is not reachable' } } } });
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/lockups?month=2026-11');
    expect(await screen.findByText(/No lock-up expiry is known for November 2026/)).toBeInTheDocument();

    const form = within(await screen.findByRole('form', { name: 'Follow by risk score' }));
    await waitFor(() => expect(form.getByLabelText('Every lock-up with a risk score of at least')).toHaveValue('70'));
    fireEvent.change(form.getByLabelText('Every lock-up with a risk score of at least'), { target: { value: '55' } });
    fireEvent.click(form.getByLabelText('14 days before'));
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Following every lock-up with a risk score of 55 or more.')).toBeInTheDocument();
    expect(api.bodies['PATCH /api/lockups/follows/71']).toEqual([{ minRiskScore: 55, noticeDays: [14, 7] }]);

    fireEvent.click(screen.getByRole('button', { name: 'Next month' }));
    fireEvent.change(screen.getByLabelText('VC backing'), { target: { value: 'yes' } });
    expect(await screen.findByText(/The lock-up calendar could not be loaded: The database is not reachable/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('reads its state from the address bar and lays out a month Monday first', () => {
    expect(calendarStateOf(new URLSearchParams('month=2026-02&day=2026-02-30&minRisk=500&minFloat=0.25&vc=no&industry=Tech%3Bdrop'), '2026-11-27')).toEqual({ month: '2026-02', view: 'calendar', minFloatShare: 0.25, vcBacked: false });
    expect(calendarStateOf(new URLSearchParams(''), '2026-11-27').month).toBe('2026-11');
    const weeks = monthWeeks('2026-12');
    expect(weeks[0]).toEqual([null, '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
    expect(weeks).toHaveLength(5);
    expect(localToday(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});

describe('lockup event page', () => {
  it('shows the figures, every factor with its study, the chart with the expiry, the trigger price, the tranches and the clause; follows with chosen notice days', async () => {
    const api = lockupsApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/lockups/12');
    expect(await screen.findByRole('heading', { level: 1, name: 'ACME Acme Cloud, Inc.' })).toBeInTheDocument();
    expect(screen.getByText('Shares unlocking').nextSibling).toHaveTextContent('240M240,000,000 shares');
    expect(screen.getByText('Share of float').nextSibling).toHaveTextContent('40 %of 600M outstanding');
    expect(screen.getByText('Last price').nextSibling).toHaveTextContent('$96.50+41.9 % since IPO');
    expect(screen.getByText(/Simulated offering \(offline demo\)/)).toBeInTheDocument();

    const factors = within(screen.getByRole('region', { name: 'Why it scores 81' }));
    const items = factors.getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.lockup-factor__points')?.textContent)).toEqual(['25 of 25 pts', '25 of 25 pts', '8.4 of 20 pts', 'unknown · 0 of 10 pts']);
    expect(items[0]).toHaveTextContent('40 % of the float unlocks Field & Hanka (2001)');
    expect(items[3]).toHaveTextContent('Not known for this event: counted as 0.');

    const chart = within(screen.getByRole('region', { name: 'Price since the IPO' }));
    expect(chart.getByRole('img')).toHaveAccessibleName(/ACME closed at \$96\.50 on Nov 26, 2026, up 41\.9 % from the IPO price of \$68\.00.*The lock-up ends on Dec 9, 2026\./);
    expect(chart.getByText('Early-release trigger $90.44 (1.33× IPO)')).toBeInTheDocument();

    const release = within(screen.getByRole('region', { name: 'Early release' }));
    expect(release.getByText('Not met')).toBeInTheDocument();
    expect(release.getByText('Price').nextSibling).toHaveTextContent('1.33× IPO = $90.44');
    expect(release.getByText('For').nextSibling).toHaveTextContent('10 of 15 trading days');
    const steps = within(screen.getByRole('region', { name: 'Release steps' }));
    expect(steps.getByRole('link', { name: 'Tranche 1' })).toHaveAttribute('href', '/dashboard/lockups/11');
    expect(steps.getByText('Tranche 2 (this page)')).toBeInTheDocument();
    const clause = within(screen.getByRole('region', { name: 'The lock-up clause' }));
    expect(clause.getByText('Who is bound').nextSibling).toHaveTextContent('our directors, executive officers and holders');
    expect(clause.getByRole('link', { name: /the prospectus, accession 0001193125-26-000001/ })).toHaveAttribute('href', DETAIL.sourceUrl);

    const follow = within(screen.getByRole('region', { name: 'Alerts for ACME' }));
    fireEvent.click(await follow.findByLabelText('14 days before'));
    fireEvent.click(follow.getByRole('button', { name: 'Follow ACME' }));
    expect(await follow.findByText('You follow ACME: notified 7 and 1 days before, and on the day.')).toBeInTheDocument();
    expect(api.bodies['POST /api/lockups/follows']).toEqual([{ kind: 'ticker', ticker: 'ACME', noticeDays: [7, 1] }]);
    expect(follow.getByRole('button', { name: 'Save notice days' })).toBeDisabled();
  });

  it('says when an event does not exist', async () => {
    installFakeApi(signedInSession(), lockupsApi());
    renderApp('/dashboard/lockups/999');
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no lock-up event “999”.');
  });
});

describe('research lockups page (public)', () => {
  it('lists the next 30 days to a visitor, and says when nothing is due', async () => {
    installFakeApi(null, lockupsApi());
    renderApp('/research/lockups');
    expect(await screen.findByRole('heading', { level: 1, name: 'IPO lock-up expirations' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Lock-ups expiring by Dec 27, 2026' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[1]).toHaveTextContent('ACME Acme Cloud, Inc.');
    expect(items[1]).toHaveTextContent('240M shares unlock · 40 % of the float · step 2 of 2');
  });

  it('shows the empty state', async () => {
    installFakeApi(null, lockupsApi({ 'GET /api/lockups/research': { status: 200, body: { from: '2026-11-27', to: '2026-12-27', events: [], source: { mode: 'live', lastDiscoveryAt: null } } } }));
    renderApp('/research/lockups');
    expect(await screen.findByText('No lock-up is known to expire between Nov 27, 2026 and Dec 27, 2026.')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Live Read from the prospectuses (424B4) filed on SEC EDGAR. No prospectus has been read yet');
  });
});

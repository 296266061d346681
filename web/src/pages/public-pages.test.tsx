import { screen, within } from '@testing-library/react';
import { removeFetch } from '../../test/fake-fetch';
import { installFakeApi, renderApp } from '../../test/render-app';
import { FOOTER_COLUMNS, HEADER_LINKS } from '../layout/site-links';
import { FEATURE_LIST } from '../features/feature-list';
import { INCLUDED } from './pricing-page';

const FORBIDDEN = /lorem|ipsum|placeholder|coming soon|todo|tbd/i;

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

const linkedPaths = [
  ...new Set([...HEADER_LINKS.map((link) => link.to), ...FOOTER_COLUMNS.flatMap((column) => column.links.map((link) => link.to)), '/research/cot']),
].filter((path) => path !== '/status');

describe('every page the header and footer link to', () => {
  it.each(linkedPaths)('%s is a real page with a heading and no filler text', async (path) => {
    installFakeApi(null);
    renderApp(path);

    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).not.toBe('Page not found');
    const main = screen.getByRole('main');
    expect(main.textContent ?? '').not.toMatch(FORBIDDEN);
    expect((main.textContent ?? '').length).toBeGreaterThan(250);
  });
});

describe('features page', () => {
  it('has one section per feature of the build, each saying how it works', async () => {
    installFakeApi(null);
    renderApp('/features');
    await screen.findByRole('heading', { level: 1, name: 'Features' });

    expect(within(screen.getByRole('main')).getAllByRole('heading', { level: 2 })).toHaveLength(FEATURE_LIST.length);
    for (const feature of FEATURE_LIST) {
      const section = screen.getByRole('region', { name: feature.title });
      expect(within(section).getByRole('heading', { name: 'How it works' })).toBeInTheDocument();
    }
  });
});

describe('pricing page', () => {
  it('says the install is self-hosted when billing is off: one plan with the operator’s limits, and every feature', async () => {
    const selfHosted = {
      key: 'self-hosted',
      name: 'Self-hosted',
      summary: 'Billing is off on this install: every account has every feature, within the limits its operator set.',
      limits: { activeAlerts: 100, watchlists: null, whaleWatches: null, yieldAlerts: null, lockupFollows: null, insiderFollows: null, chatRoomsCreated: null, seats: null },
      features: { webhooks: true, telegram: true },
    };
    installFakeApi(null, (path) =>
      path === '/api/billing/pricing'
        ? { status: 200, body: { billing: 'off', defaultPlan: selfHosted, plans: [{ ...selfHosted, productName: null, description: null, prices: [] }] } }
        : { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } },
    );
    renderApp('/pricing');
    await screen.findByRole('heading', { level: 1, name: 'Pricing' });

    const plan = await screen.findByRole('listitem', { name: 'Self-hosted' });
    expect(within(plan).getByText('100 active alerts')).toBeInTheDocument();
    expect(within(plan).getByText('Unlimited watchlists')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(/self-hosted: billing is off, so there is nothing to pay/);
    const included = screen.getByRole('heading', { name: 'Every plan includes' }).parentElement!;
    expect(within(included).getAllByRole('listitem')).toHaveLength(FEATURE_LIST.length);
    expect(INCLUDED).toHaveLength(FEATURE_LIST.length);
    expect(screen.getByRole('main')).toHaveTextContent(/operator of each install decides how many alerts/);
  });
});

import { screen, within } from '@testing-library/react';
import { removeFetch } from '../../test/fake-fetch';
import { installFakeApi, renderApp } from '../../test/render-app';
import { FOOTER_COLUMNS, HEADER_LINKS } from '../layout/site-links';
import { FEATURES } from './features-page';
import { PLANS } from './pricing-page';

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
  it('has one section per capability of the spec, each saying how it works', async () => {
    installFakeApi(null);
    renderApp('/features');
    await screen.findByRole('heading', { level: 1, name: 'Features' });

    expect(FEATURES).toHaveLength(15);
    for (const feature of FEATURES) {
      const section = screen.getByRole('region', { name: feature.heading });
      expect(within(section).getByRole('heading', { name: 'How it works' })).toBeInTheDocument();
    }
  });
});

describe('pricing page', () => {
  it('lists Free, Pro and Team with their alert limits, operator-set prices and Stripe billing', async () => {
    installFakeApi(null);
    renderApp('/pricing');
    await screen.findByRole('heading', { level: 1, name: 'Pricing' });

    expect(PLANS.map((plan) => plan.name)).toEqual(['Free', 'Pro', 'Team']);
    for (const plan of PLANS) {
      expect(screen.getByRole('heading', { level: 2, name: plan.name })).toBeInTheDocument();
      expect(screen.getByText(plan.alertLimit)).toBeInTheDocument();
    }
    expect(screen.getByRole('main')).toHaveTextContent(/operator of each install sets the prices/);
    expect(screen.getByRole('main')).toHaveTextContent(/Stripe/);
  });
});

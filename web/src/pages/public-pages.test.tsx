import { screen, within } from '@testing-library/react';
import { removeFetch } from '../../test/fake-fetch';
import { installFakeApi, renderApp } from '../../test/render-app';
import { FOOTER_COLUMNS, HEADER_LINKS } from '../layout/site-links';
import { FEATURE_LIST } from '../features/feature-list';
import { FREE_ALERT_LIMIT } from './pricing-page';

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
  it('offers the one plan this build has, with its alert limit and every feature, and no payment', async () => {
    installFakeApi(null);
    renderApp('/pricing');
    await screen.findByRole('heading', { level: 1, name: 'Pricing' });

    const plan = screen.getByRole('listitem', { name: 'Free' });
    expect(within(plan).getByText(new RegExp(`Up to ${FREE_ALERT_LIMIT} active alerts`))).toBeInTheDocument();
    expect(within(plan).getAllByRole('listitem')).toHaveLength(FEATURE_LIST.length);
    expect(screen.getByRole('main')).toHaveTextContent(/operator of each install decides how many alerts/);
  });
});

import { screen, within } from '@testing-library/react';
import type { RouteObject } from 'react-router-dom';
import { removeFetch } from '../../test/fake-fetch';
import { installFakeApi, renderApp } from '../../test/render-app';
import { routes } from '../app';
import { FEATURE_LIST } from '../features/feature-list';

/**
 * How a public page would name each data domain of the product spec (its feature names, see
 * ../shared/STYLE.md). A domain that is not in FEATURE_LIST must not be named on any public page;
 * once its entry lands there, its words are allowed.
 */
const DOMAIN_WORDS: Readonly<Record<string, RegExp>> = {
  cot: /\bCOT\b|commitments of traders/i,
  insiders: /insider|form 4|\bEDGAR\b/i,
  whales: /whale|wallet|ethereum|block explorer/i,
  yields: /\byields?\b|liquidity.pool|uniswap|defillama|\bdefi\b|\bAPR\b|telegram/i,
  predictions: /predict|polymarket|brier|mispric/i,
  lockups: /lock-?ups?\b|\bIPO\b/i,
  chat: /\bchat\b/i,
  billing: /stripe|billing|\bbilled\b|invoice|checkout|paid (plan|feature)s?|card details|upgrade|\b(pro|team) plan/i,
};

const ON = new Set(FEATURE_LIST.map((feature) => feature.id));
const OFF = Object.entries(DOMAIN_WORDS).filter(([domain]) => !ON.has(domain));

/** Every public page the router has without a parameter: its own list, so new pages are covered. */
function publicPaths(list: readonly RouteObject[], parent = ''): string[] {
  return list.flatMap((route) => {
    const path = route.index ? parent : route.path === undefined ? parent : `${parent}/${route.path}`;
    if (route.path?.includes(':') || route.path === '*') return [];
    // Signed-in pages are the dashboard's; the demo is its public twin.
    if (path === '/dashboard') return [];
    const own = route.index || (route.path !== undefined && route.element) ? [path === '' ? '/' : path] : [];
    return [...own, ...publicPaths(route.children ?? [], path)];
  });
}

const PATHS = [...new Set(publicPaths(routes))];

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

describe('the public site describes only the features this build has', () => {
  it('finds the public pages in the router', () => {
    expect(PATHS).toEqual(expect.arrayContaining(['/', '/features', '/pricing', '/research', '/faq', '/about', '/dashboard/demo']));
    expect(PATHS.some((path) => path.startsWith('/dashboard/') && path !== '/dashboard/demo')).toBe(false);
  });

  it.each(PATHS)('%s names no domain that is not in the feature list', async (path) => {
    installFakeApi(null);
    renderApp(path);
    await screen.findByRole('heading', { level: 1 });

    const text = document.body.textContent ?? '';
    const named = OFF.filter(([, words]) => words.test(text)).map(([domain]) => `${domain}: "${words(text, DOMAIN_WORDS[domain])}"`);
    expect(named).toEqual([]);
  });

  it.each([
    ['/', (feature: (typeof FEATURE_LIST)[number]) => feature.title],
    ['/features', (feature: (typeof FEATURE_LIST)[number]) => feature.title],
  ])('%s shows every feature of the list', async (path, copy) => {
    installFakeApi(null);
    renderApp(path);
    const main = within(await screen.findByRole('main'));
    await main.findByRole('heading', { level: 1 });

    for (const feature of FEATURE_LIST) expect(main.getByRole('heading', { name: copy(feature) })).toBeInTheDocument();
  });

  it('/research lists the source and method of every feature that has them', async () => {
    installFakeApi(null);
    renderApp('/research');
    const main = within(await screen.findByRole('main'));
    await main.findByRole('heading', { level: 1, name: 'Research' });

    for (const feature of FEATURE_LIST) {
      if (feature.source) expect(main.getByText(feature.source)).toBeInTheDocument();
      if (feature.method) expect(main.getByRole('region', { name: feature.method.heading ?? feature.title })).toHaveTextContent(feature.method.text);
    }
  });
});

/** The words around a match, so a failure says where the page names the domain. */
function words(text: string, pattern: RegExp | undefined): string {
  const match = pattern ? new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(text) : null;
  return match ? text.slice(Math.max(0, match.index - 40), match.index + match[0].length + 40).replace(/\s+/g, ' ') : '';
}

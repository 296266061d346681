import { screen, within } from '@testing-library/react';
import { removeFetch } from '../../test/fake-fetch';
import { installFakeApi, renderApp } from '../../test/render-app';

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

describe('COT research page', () => {
  it('states the definitions used by the analytics', async () => {
    installFakeApi(null);
    renderApp('/research/cot');
    await screen.findByRole('heading', { level: 1 });
    const text = screen.getByRole('main').textContent ?? '';

    expect(text).toContain('(long − short) ÷ open interest × 100, rounded to 2 decimals');
    expect(text).toContain('dealer + asset manager');
    expect(text).toContain('100 × count(values ≤ current) ÷ count(values)');
    expect(text).toContain('156 reports');
    expect(text).toContain('26- or 52-report window');
    expect(text).toContain('100 × (current − min) ÷ (max − min)');
    expect(text).toContain('the index is 50');
    expect(text).toMatch(/90 or more.*10 or less/);
    expect(text).toContain('leveraged funds percentile − asset managers percentile');
    expect(text).toContain('fewer than 26 reports');
  });

  it('highlights Research in the header', async () => {
    installFakeApi(null);
    renderApp('/research/cot');
    await screen.findByRole('heading', { level: 1 });

    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Research' })).toHaveAttribute('aria-current', 'page');
  });
});

import { act, render, screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { installFetch, removeFetch } from '../test/fake-fetch';
import { routes } from './app';
import { FEATURE_LIST } from './features/feature-list';

async function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  // Let the session check every page starts settle inside act.
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
  return router;
}

// Signed out; every other call fails the way a browser's does when nothing answers.
beforeEach(() => {
  installFetch((path) => {
    if (path === '/api/auth/session') return { status: 200, body: {} };
    throw new TypeError('Failed to fetch');
  });
});
afterEach(removeFetch);

describe('app routes', () => {
  it('renders the home page inside the layout at /', async () => {
    await renderAt('/');

    expect(screen.getByRole('heading', { level: 1, name: 'The market moves. Tickerbell rings.' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main-content');
    expect(document.title).toBe('Tickerbell · Market analytics and alerts for traders');
  });

  it('describes each feature of the build on the home page', async () => {
    await renderAt('/');

    for (const feature of FEATURE_LIST) {
      expect(screen.getByRole('article', { name: feature.title })).toBeInTheDocument();
    }
  });

  it('loads the status page on demand at /status', async () => {
    await renderAt('/status');

    expect(await screen.findByRole('heading', { level: 1, name: 'System status' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'The Tickerbell API is unreachable' })).toBeInTheDocument();
  });

  it('shows a not-found page with a way home for unknown paths', async () => {
    await renderAt('/no/such/page');

    const main = within(screen.getByRole('main'));
    expect(main.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(main.getByText('/no/such/page')).toBeInTheDocument();
    expect(main.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Page not found · Tickerbell');
    // The site's header and footer stay around the error.
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });
});

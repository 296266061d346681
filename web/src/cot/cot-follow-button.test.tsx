import { fireEvent, render, screen } from '@testing-library/react';
import { installFetch, removeFetch, type FakeHandler } from '../../test/fake-fetch';
import { CotFollowButton } from './cot-follow-button';

// Shapes as in api/src/cot/cot-follows.routes.ts and api/test/cot/cot-follows.routes.test.ts.
function api(followed: string[], onFollow: FakeHandler = () => ({ status: 200, body: { cftcCode: '13874A', following: true } })) {
  return installFetch((path, init) => {
    if (path === '/api/auth/csrf') return { status: 200, body: { csrfToken: 'csrf-test' } };
    if (path === '/api/cot/follows') {
      return { status: 200, body: { items: followed.map((cftcCode) => ({ cftcCode, name: 'E-MINI S&P 500', symbol: 'ES', category: 'equity-index', exchange: 'CME', followedAt: '2026-11-20T10:00:00.000Z' })) } };
    }
    if (path.startsWith('/api/cot/instruments/')) return onFollow(path, init);
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found', requestId: 'r' } } };
  });
}

afterEach(() => removeFetch());

describe('CotFollowButton', () => {
  it('shows whether the user already follows the instrument', async () => {
    api(['13874A']);
    render(<CotFollowButton code="13874A" name="E-mini S&P 500" />);
    expect(await screen.findByRole('button', { name: /Following/ })).toHaveAttribute('aria-pressed', 'true');
  });

  it('follows with a PUT carrying the csrf token', async () => {
    const fetchMock = api([]);
    render(<CotFollowButton code="13874A" name="E-mini S&P 500" />);
    fireEvent.click(await screen.findByRole('button', { name: /^Follow E-mini/ }));
    expect(await screen.findByRole('button', { name: /Following/ })).toHaveAttribute('aria-pressed', 'true');
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/api/cot/instruments/13874A/follow');
    expect(call?.[1]?.method).toBe('PUT');
    expect(new Headers(call?.[1]?.headers).get('x-csrf-token')).toBe('csrf-test');
  });

  it('unfollows with a DELETE', async () => {
    const fetchMock = api(['13874A'], () => ({ status: 200, body: { cftcCode: '13874A', following: false } }));
    render(<CotFollowButton code="13874A" name="E-mini S&P 500" />);
    fireEvent.click(await screen.findByRole('button', { name: /Following/ }));
    expect(await screen.findByRole('button', { name: /^Follow E-mini/ })).toHaveAttribute('aria-pressed', 'false');
    expect(fetchMock.mock.calls.some(([url, init]) => String(url).endsWith('/follow') && init?.method === 'DELETE')).toBe(true);
  });

  it('keeps the old state and says why when the api refuses', async () => {
    api([], () => ({ status: 403, body: { error: { code: 'csrf_invalid', message: 'The CSRF token is missing or wrong', requestId: 'r' } } }));
    render(<CotFollowButton code="13874A" name="E-mini S&P 500" />);
    fireEvent.click(await screen.findByRole('button', { name: /^Follow E-mini/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not follow: The CSRF token is missing or wrong');
    expect(screen.getByRole('button', { name: /^Follow E-mini/ })).toHaveAttribute('aria-pressed', 'false');
  });
});

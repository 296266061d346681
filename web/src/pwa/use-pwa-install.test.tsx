import { render, waitFor } from '@testing-library/react';
import { installFetch, removeFetch } from '../../test/fake-fetch';
import { PWA_REPORTED_KEY } from './pwa-install';
import { usePwaInstallTracking } from './use-pwa-install';

function Tracker({ signedIn }: { signedIn: boolean }) {
  usePwaInstallTracking(signedIn);
  return null;
}

function fakeApi() {
  return installFetch((path) =>
    path === '/api/auth/csrf' ? { status: 200, body: { csrfToken: 'tok' } } : { status: 200, body: { pwaInstalled: true } },
  );
}

const installCalls = (fetchMock: jest.Mock): unknown[] =>
  fetchMock.mock.calls.filter(([path]) => path === '/api/user/pwa-install').map(([, init]) => JSON.parse(String((init as RequestInit).body)));

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

describe('usePwaInstallTracking', () => {
  it('reports appinstalled to the api while signed in', async () => {
    const fetchMock = fakeApi();
    render(<Tracker signedIn />);

    window.dispatchEvent(new Event('appinstalled'));

    await waitFor(() => expect(installCalls(fetchMock)).toEqual([{ installSource: 'install-prompt' }]));
    await waitFor(() => expect(window.localStorage.getItem(PWA_REPORTED_KEY)).toBe('true'));
  });

  it('reports nothing while signed out', () => {
    const fetchMock = fakeApi();
    render(<Tracker signedIn={false} />);

    window.dispatchEvent(new Event('appinstalled'));

    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reports a standalone launch once', async () => {
    const fetchMock = fakeApi();
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => ({ matches: query === '(display-mode: standalone)' }),
    });
    render(<Tracker signedIn />);
    await waitFor(() => expect(installCalls(fetchMock)).toEqual([{ installSource: 'standalone-launch' }]));
    await waitFor(() => expect(window.localStorage.getItem(PWA_REPORTED_KEY)).toBe('true'));

    render(<Tracker signedIn />);

    expect(installCalls(fetchMock)).toHaveLength(1);
    Reflect.deleteProperty(window, 'matchMedia');
  });
});

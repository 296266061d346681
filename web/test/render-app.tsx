// Renders the whole app (every route, the real providers) at a path, against a fake api.
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { routes } from '../src/app';
import type { Session } from '../src/session/auth-client';
import { installFetch, type FakeHandler } from './fake-fetch';

export function installFakeApi(session: Session | null, extra: FakeHandler = () => ({ status: 404, body: { error: { code: 'not_found', message: 'Not found' } } })) {
  return installFetch((path, init) => {
    const key = path.split('?')[0];
    if (key === '/api/auth/session') return { status: 200, body: session ?? {} };
    if (key === '/api/auth/csrf') return { status: 200, body: { csrfToken: 'csrf-test' } };
    if (key === '/api/auth/providers') {
      return { status: 200, body: { credentials: { id: 'credentials', name: 'Credentials', type: 'credentials', signinUrl: '/s', callbackUrl: '/c' } } };
    }
    return extra(path, init);
  });
}

export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

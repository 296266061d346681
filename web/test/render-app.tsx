// Renders the whole app (every route, the real providers) at a path, against a fake api.
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { routes } from '../src/app';
import type { Session } from '../src/accounts/auth-client';
import { installFetch, type FakeHandler } from './fake-fetch';

export function installFakeApi(session: Session | null, extra: FakeHandler = () => ({ status: 404, body: { error: { code: 'not_found', message: 'Not found' } } })) {
  return installFetch((path, init) => {
    const key = path.split('?')[0];
    if (key === '/api/auth/session') return { status: 200, body: session ?? {} };
    if (key === '/api/auth/csrf') return { status: 200, body: { csrfToken: 'csrf-test' } };
    // The signed-in notification centre: an empty server list, and its changes accepted (shapes
    // as in api/test/notifications/notifications.routes.test.ts).
    const method = init?.method ?? 'GET';
    if (key === '/api/notifications' && method === 'GET') return { status: 200, body: { notifications: [], unreadCount: 0, nextCursor: null } };
    if (key === '/api/notifications/read-all' && method === 'POST') return { status: 200, body: { updated: 0, unreadCount: 0 } };
    if (key === '/api/notifications' && method === 'DELETE') return { status: 200, body: { deleted: 0 } };
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

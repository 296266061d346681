import type { RouteObject } from 'react-router-dom';
import { SiteLayout } from './layout/site-layout';
import { lazyComponent } from './lazy-component';
import { HomePage } from './pages/home-page';
import { NotFoundPage } from './pages/not-found-page';
import { RouteErrorPage } from './pages/route-error-page';

// Only pages most visitors open stay in the initial bundle; the rest load on demand.
const StatusPage = lazyComponent(() => import('./status/status-page').then((module) => module.StatusPage));

export const routes: RouteObject[] = [
  {
    element: <SiteLayout />,
    children: [
      {
        // A pathless route so a failing page keeps the header and footer around its error.
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'status', element: <StatusPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

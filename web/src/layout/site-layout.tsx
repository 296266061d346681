import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

function PageLoading() {
  return (
    <div className="container page page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      Loading…
    </div>
  );
}

export function SiteLayout() {
  return (
    <div className="site">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <SiteHeader />
      {/* tabIndex lets the skip link move focus, not just scroll. */}
      <main id="main-content" className="site-main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}

import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';

// Shown inside the site layout when a page throws while rendering or its code fails to load
// (typically after a deploy replaced the chunk an open tab still refers to).
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;

  return (
    <div className="container page message-page" role="alert">
      <title>Something went wrong · Tickerbell</title>
      <h1>Something went wrong</h1>
      <p className="page-lede">This page could not be shown. Reloading usually fixes it.</p>
      {detail && <p className="message-page__detail">{detail}</p>}
      <div className="message-page__actions">
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          Reload the page
        </button>
        <Link to="/" className="button button--ghost">
          Go to the home page
        </Link>
      </div>
    </div>
  );
}

import { Link, useLocation } from 'react-router-dom';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <div className="container page message-page">
      <title>Page not found · Tickerbell</title>
      <p className="message-page__code" aria-hidden="true">
        404
      </p>
      <h1>Page not found</h1>
      <p className="page-lede">
        There is no page at <code className="message-page__path">{pathname}</code>. It may have moved,
        or the address may have a typo.
      </p>
      <div className="message-page__actions">
        <Link to="/" className="button button--primary">
          Go to the home page
        </Link>
        <Link to="/status" className="button button--ghost">
          Check system status
        </Link>
      </div>
    </div>
  );
}

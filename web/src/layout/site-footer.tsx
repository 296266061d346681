import { useId } from 'react';
import { Link } from 'react-router-dom';
import { FOOTER_COLUMNS, SOCIAL_PROFILES, TAGLINE } from './site-links';
import { SocialIcon } from './social-icon';
import { TickerbellLogo } from './tickerbell-logo';

export function SiteFooter() {
  const idPrefix = useId();
  const year = new Date().getFullYear();

  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__brand">
          <Link to="/" className="brand" aria-label="Tickerbell home">
            <TickerbellLogo size={55} />
            <span className="brand__name">Tickerbell</span>
          </Link>
          <p className="site-footer__tagline">{TAGLINE}</p>
          <ul className="social-links" aria-label="Tickerbell on social media">
            {SOCIAL_PROFILES.map((profile) => (
              <li key={profile.network}>
                <a
                  className="social-link"
                  href={profile.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${profile.label} (opens in a new tab)`}
                >
                  <SocialIcon network={profile.network} />
                </a>
              </li>
            ))}
          </ul>
        </div>

        {FOOTER_COLUMNS.map((column) => {
          const headingId = `${idPrefix}-${column.title.toLowerCase()}`;
          return (
            <nav key={column.title} className="site-footer__column" aria-labelledby={headingId}>
              <h2 id={headingId} className="site-footer__heading">
                {column.title}
              </h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className="site-footer__link">
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          );
        })}
      </div>

      <div className="container site-footer__bottom">
        <p>© {year} Tickerbell. All rights reserved.</p>
      </div>
    </footer>
  );
}

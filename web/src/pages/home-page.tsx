import { Link } from 'react-router-dom';
import { ParticleBackground } from '../background/particle-background';
import { SIGN_UP_PATH } from '../layout/site-links';
import { FeatureIcon } from '../features/feature-icon';
import { FEATURE_GROUPS, featuresIn } from '../features/feature-list';
import { EXAMPLE_NOTIFICATIONS } from './home-content';
import './home.css';

function NotificationPreview() {
  return (
    <figure className="notification-preview">
      <ul className="notification-preview__list">
        {EXAMPLE_NOTIFICATIONS.map((notification) => (
          <li key={notification.title} className={`notification-card notification-card--${notification.tone}`}>
            <span className="notification-card__bell" aria-hidden="true" />
            <div>
              <p className="notification-card__title">{notification.title}</p>
              <p className="notification-card__message">{notification.message}</p>
            </div>
          </li>
        ))}
      </ul>
      <figcaption>Example notifications</figcaption>
    </figure>
  );
}

export function HomePage() {
  return (
    <>
      <title>Tickerbell · Market analytics and alerts for traders</title>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero__grid">
          <div className="hero__copy">
            <p className="eyebrow">Market analytics for serious traders</p>
            <h1 id="hero-title" className="hero__title">
              The market moves. Tickerbell rings.
            </h1>
            <p className="hero__lede">
              Real-time dashboards, audio alerts and professional-grade analysis tools in one place.
              Tickerbell watches exchanges, prices and futures positioning, and tells you, on screen or
              out loud, the moment something you care about happens.
            </p>
            <div className="hero__actions">
              <Link to={SIGN_UP_PATH} className="button button--primary button--large">
                Create Account
              </Link>
              <Link to="/dashboard/demo" className="button button--secondary button--large">
                Try the demo
              </Link>
            </div>
          </div>
          <NotificationPreview />
        </div>
      </section>

      {FEATURE_GROUPS.map((group) => ({ group, features: featuresIn(group.id) }))
        // A group shows once one of its features is in the build.
        .filter(({ features }) => features.length > 0)
        .map(({ group, features }) => (
          <section key={group.id} className="capability-group" aria-labelledby={`group-${group.id}`}>
            <div className="container">
              <div className="capability-group__header">
                <h2 id={`group-${group.id}`} className="section-title">
                  {group.title}
                </h2>
                <p className="section-intro">{group.intro}</p>
              </div>
              <div className="capability-grid">
                {features.map((feature) => (
                  <article key={feature.id} className="capability" aria-labelledby={`capability-${feature.id}`}>
                    <FeatureIcon name={feature.icon} className="capability__icon" />
                    <h3 id={`capability-${feature.id}`} className="capability__title">
                      {feature.title}
                    </h3>
                    <p className="capability__body">{feature.blurb}</p>
                  </article>
                ))}
              </div>
            </div>
          </section>
        ))}

      <section className="closing-cta closing-cta--particles" aria-labelledby="closing-cta-title">
        <ParticleBackground />
        <div className="container closing-cta__inner">
          <h2 id="closing-cta-title">Ready to get started?</h2>
          <p>Set up your first exchange notifications and alerts in a few minutes.</p>
          <div className="hero__actions">
            <Link to={SIGN_UP_PATH} className="button button--primary button--large">
              Create Account
            </Link>
            <Link to="/pricing" className="button button--ghost button--large">
              See pricing
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}

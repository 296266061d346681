import { Link } from 'react-router-dom';
import { ContentPage } from './content-page';

export function PrivacyPage() {
  return (
    <ContentPage
      title="Privacy Policy"
      eyebrow="Legal"
      lede={<p>What Tickerbell stores about you, why, and what you can do about it.</p>}
      sections={[
        {
          id: 'collect',
          heading: 'What we store',
          body: (
            <ul className="content-list">
              <li>Account: your name, email address, a salted hash of your password (never the password itself) or your Google account id, and your role.</li>
              <li>What you set up: followed exchanges, alerts, watchlists, layouts, team memberships and preferences.</li>
              <li>Notifications, the browsers you allowed to receive push notifications, and the activity log of your team.</li>
              <li>Whether you installed the app, and from where, so we can improve install prompts.</li>
            </ul>
          ),
        },
        {
          id: 'browser',
          heading: 'Stored in your browser',
          body: (
            <p>
              Your theme choice, sound setting, chosen voice and your newest 50 notifications are kept in your
              browser’s local storage so they load instantly. Clearing site data removes them. See the{' '}
              <Link to="/cookies">Cookie Policy</Link>.
            </p>
          ),
        },
        {
          id: 'use',
          heading: 'How we use it',
          body: (
            <p>
              Only to run Tickerbell for you: sign you in and send the notifications you asked for. We do not sell
              personal data and do not use advertising trackers.
            </p>
          ),
        },
        {
          id: 'operator',
          heading: 'Who is responsible',
          body: (
            <p>
              Tickerbell is self-hostable. The operator of the install you use is the controller of your data and
              decides where it is hosted and how long backups are kept.
            </p>
          ),
        },
        {
          id: 'rights',
          heading: 'Your rights',
          body: (
            <p>
              You can correct your profile in the dashboard settings and ask for a copy or the deletion of your data
              through the <Link to="/contact">contact form</Link>. Deleting your account removes your personal data
              and stops every alert and notification it had set up at once.
            </p>
          ),
        },
      ]}
    />
  );
}

export function TermsPage() {
  return (
    <ContentPage
      title="Terms of Service"
      eyebrow="Legal"
      lede={<p>The rules for using Tickerbell. By creating an account you agree to them.</p>}
      sections={[
        {
          id: 'not-advice',
          heading: 'Information, not advice',
          body: (
            <p>
              Tickerbell shows data from public sources and computations on it. Nothing in Tickerbell is investment
              advice. Markets carry risk; you are responsible for your trading decisions.
            </p>
          ),
        },
        {
          id: 'accuracy',
          heading: 'Accuracy and availability',
          body: (
            <p>
              We work to deliver alerts on time and data correctly, but sources can be late or wrong and networks can
              fail. Do not rely on Tickerbell as your only source for time-critical decisions. Current health is on
              the <Link to="/status">status page</Link>.
            </p>
          ),
        },
        {
          id: 'account',
          heading: 'Your account',
          body: (
            <p>
              Keep your password private and tell us if you think someone else used your account. One account per
              person; team accounts are for members of the same team.
            </p>
          ),
        },
        {
          id: 'use',
          heading: 'Acceptable use',
          body: (
            <p>
              Do not overload the service, scrape it, try to reach other users’ data, or use it to send unlawful or
              abusive content (alert messages and webhooks included). We may suspend accounts that do.
            </p>
          ),
        },
      ]}
    />
  );
}

export function CookiesPage() {
  return (
    <ContentPage
      title="Cookie Policy"
      eyebrow="Legal"
      lede={<p>Tickerbell uses only what it needs to work. No advertising or tracking cookies.</p>}
      sections={[
        {
          id: 'cookies',
          heading: 'Cookies',
          body: (
            <ul className="content-list">
              <li>Session cookie: keeps you signed in. It is HTTP-only, so scripts cannot read it, and ends when you sign out or it expires.</li>
              <li>Security (CSRF) cookie: proves that forms you submit came from Tickerbell itself.</li>
            </ul>
          ),
        },
        {
          id: 'local-storage',
          heading: 'Local storage',
          body: (
            <ul className="content-list">
              <li>Theme choice (Auto, Light or Dark).</li>
              <li>Sound on or off, and the voice for spoken alerts.</li>
              <li>Your newest 50 notifications and which market notifications were already sent today.</li>
            </ul>
          ),
        },
        {
          id: 'offline',
          heading: 'Offline cache',
          body: (
            <p>
              The installed app keeps a copy of the app’s pages and assets in your browser’s cache so it starts when
              you are offline. It contains no personal data.
            </p>
          ),
        },
        {
          id: 'control',
          heading: 'Your control',
          body: (
            <p>
              Clearing this site’s data in your browser removes all of the above; you will need to sign in again.
              Questions: <Link to="/contact">contact us</Link>.
            </p>
          ),
        },
      ]}
    />
  );
}

import { Link } from 'react-router-dom';
import { ContentPage } from './content-page';

export function HelpPage() {
  return (
    <ContentPage
      title="Help Center"
      eyebrow="Support"
      lede={<p>Fixes for the common problems, and where to go when they do not help.</p>}
      sections={[
        {
          id: 'account',
          heading: 'Signing in',
          body: (
            <ul className="content-list">
              <li>
                Forgot your password? Use <Link to="/forgot-password">reset password</Link>; the link we email you
                works once and expires.
              </li>
              <li>Did not get the verification email? Check your spam folder, then sign up again with the same address to get a new link.</li>
              <li>“This email already belongs to an account that signs in another way” means you signed up with Google: use the Google button.</li>
            </ul>
          ),
        },
        {
          id: 'notifications',
          heading: 'Notifications',
          body: (
            <ul className="content-list">
              <li>No toasts on the Activity page is intentional: the full history is already on screen there.</li>
              <li>No sound: turn sound on in Settings and click once in the page (browsers block sound until then).</li>
              <li>Missed alerts while offline? They are in your notification history when you come back.</li>
            </ul>
          ),
        },
        {
          id: 'data',
          heading: 'Data looks stale',
          body: (
            <p>
              The <Link to="/status">status page</Link> shows whether the API, database and background queues are
              healthy and when each data source last updated. COT reports are weekly, so their numbers change once a
              week.
            </p>
          ),
        },
        {
          id: 'contact',
          heading: 'Still stuck?',
          body: (
            <p>
              Send us a message through the <Link to="/contact">contact form</Link>. Include the page you were on and
              what you expected to happen.
            </p>
          ),
        },
      ]}
    />
  );
}

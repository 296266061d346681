import { Link } from 'react-router-dom';
import { ContentPage } from './content-page';

export function GuidesPage() {
  return (
    <ContentPage
      title="Guides"
      eyebrow="Learn"
      lede={<p>Step-by-step guides to get the most out of Tickerbell.</p>}
      sections={[
        {
          id: 'first-steps',
          heading: 'Your first ten minutes',
          body: (
            <ol className="content-list">
              <li>
                <Link to="/sign-up">Create an account</Link> and confirm your email with the link we send.
              </li>
              <li>Open the dashboard and go to Exchanges. Follow the exchanges you trade.</li>
              <li>Keep a Tickerbell tab open (or install the app): you will hear a chime 10 minutes before each open and close.</li>
              <li>In Settings, choose your theme and whether notifications play sounds.</li>
            </ol>
          ),
        },
        {
          id: 'sound',
          heading: 'Hearing your alerts',
          body: (
            <>
              <p>
                Browsers only play sound after you have interacted with the page once. After signing in, click
                anywhere in Tickerbell and sounds will play from then on.
              </p>
              <p>
                Spoken crypto alerts use your browser’s built-in voices. They play on windows wider than 768 px, so
                a phone in your pocket stays quiet. Turn all sounds off in Settings.
              </p>
            </>
          ),
        },
        {
          id: 'cot',
          heading: 'Reading COT positioning',
          body: (
            <p>
              Start with the COT index: near 100 a group is as long as it has been in the window, near 0 as short.
              Readings of 90 or more, or 10 or less, are extremes. Then check divergence: when leveraged funds and
              asset managers are at opposite extremes, one of them is usually wrong. Full definitions are in{' '}
              <Link to="/research/cot">COT definitions</Link>.
            </p>
          ),
        },
        {
          id: 'install',
          heading: 'Installing the app',
          body: (
            <ul className="content-list">
              <li>Chrome and Edge on desktop: the install icon at the right of the address bar.</li>
              <li>Android: the browser menu, then “Install app” or “Add to Home screen”.</li>
              <li>iPhone and iPad (Safari): Share, then “Add to Home Screen”.</li>
            </ul>
          ),
        },
      ]}
    />
  );
}

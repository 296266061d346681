import { Link } from 'react-router-dom';
import { SOCIAL_PROFILES } from '../layout/site-links';
import { ContentPage } from './content-page';

export function AboutPage() {
  return (
    <ContentPage
      title="About Tickerbell"
      eyebrow="Company"
      lede={
        <p>
          Tickerbell is a market analytics and monitoring platform for traders: real-time dashboards, audio alerts
          and professional-grade analysis tools, in one app you can run yourself.
        </p>
      }
      sections={[
        {
          id: 'why',
          heading: 'Why we built it',
          body: (
            <p>
              Traders keep a dozen tabs open: an exchange clock, a price alert app, a charting site, the CFTC’s
              positioning reports. Tickerbell watches them in the background and rings when something you care
              about happens, so your attention goes to decisions instead of refreshing pages.
            </p>
          ),
        },
        {
          id: 'principles',
          heading: 'How we work',
          body: (
            <ul className="content-list">
              <li>Public sources only, with documented formulas (see <Link to="/research">Research</Link>).</li>
              <li>Self-hostable: run it on your own server and keep your data there.</li>
              <li>Alerts that fire once, on time, and never twice for the same event.</li>
              <li>Accessible in light and dark, on a phone or a desktop.</li>
            </ul>
          ),
        },
        {
          id: 'contact',
          heading: 'Get in touch',
          body: (
            <p>
              Questions, ideas or a bug to report? Use the <Link to="/contact">contact form</Link> or read the{' '}
              <Link to="/help">help center</Link>.
            </p>
          ),
        },
      ]}
    />
  );
}

export function TeamPage() {
  const github = SOCIAL_PROFILES.find((profile) => profile.network === 'github');
  return (
    <ContentPage
      title="The team"
      eyebrow="Company"
      lede={
        <p>
          Tickerbell is built in the open by a small group of engineers who trade and a community of contributors.
        </p>
      }
      sections={[
        {
          id: 'who',
          heading: 'Who builds Tickerbell',
          body: (
            <p>
              The core team looks after the data pipelines (exchange calendars, market prices and the CFTC’s
              reports), the alert engine, and this web app. Every change is reviewed and tested against
              recorded real data before it ships.
            </p>
          ),
        },
        {
          id: 'contribute',
          heading: 'Contribute',
          body: (
            <p>
              Found a bug or want a data source added? Open an issue or a pull request on{' '}
              {github ? <a href={github.href}>GitHub</a> : 'GitHub'}, or write to us through the{' '}
              <Link to="/contact">contact form</Link>.
            </p>
          ),
        },
        {
          id: 'teams',
          heading: 'Using Tickerbell as a team',
          body: (
            <p>
              Teams let a desk work together: invite members by email, give them roles, and see one activity log of
              who joined and what changed. Create a team in the dashboard settings; see{' '}
              <Link to="/features#accounts">Features</Link>.
            </p>
          ),
        },
      ]}
    />
  );
}

import { Link } from 'react-router-dom';
import { FEATURE_LIST } from '../features/feature-list';
import { ContentPage, type ContentSection } from './content-page';

// The sources and methods of the features this build has (features/feature-list.ts).
const withSource = FEATURE_LIST.filter((feature) => feature.source !== undefined);

const methods: ContentSection[] = FEATURE_LIST.flatMap((feature) =>
  feature.method
    ? [
        {
          id: feature.id,
          heading: feature.method.heading ?? feature.title,
          body: (
            <p>
              {feature.method.text}
              {feature.method.link && (
                <>
                  {' '}
                  <Link to={feature.method.link.to}>{feature.method.link.label}</Link>.
                </>
              )}
            </p>
          ),
        },
      ]
    : [],
);

export function ResearchPage() {
  return (
    <ContentPage
      title="Research"
      eyebrow="Methods"
      lede={
        <p>
          How Tickerbell turns raw market data into the numbers on your dashboard. Every figure is computed from
          public sources by documented rules, so you can check it yourself.
        </p>
      }
      sections={[
        {
          id: 'sources',
          heading: 'Where the data comes from',
          body: (
            <ul className="content-list">
              {withSource.map((feature) => (
                <li key={feature.id}>{feature.source}</li>
              ))}
            </ul>
          ),
        },
        {
          id: 'freshness',
          heading: 'Freshness and checks',
          body: (
            <p>
              Each source is fetched on its own schedule by background workers, parsed, and stored idempotently,
              so fetching the same report twice never doubles it. The newest data of each source and its last
              successful fetch are shown on the <Link to="/status">status page</Link>. Percentages are computed with
              decimal arithmetic and rounded once, at the end, so results do not drift from floating-point error.
            </p>
          ),
        },
        ...methods,
      ]}
    />
  );
}

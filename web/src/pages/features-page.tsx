import { Link } from 'react-router-dom';
import { FEATURE_LIST } from '../features/feature-list';
import { ContentPage, type ContentSection } from './content-page';

// One section per feature of this build, in the list's order (features/feature-list.ts).
const sections: ContentSection[] = FEATURE_LIST.map((feature) => ({
  id: feature.id,
  heading: feature.title,
  body: (
    <>
      <p>{feature.blurb}</p>
      <h3 className="content-section__subheading">How it works</h3>
      <ul className="content-list">
        {feature.details.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </>
  ),
}));

export function FeaturesPage() {
  return (
    <ContentPage
      title="Features"
      eyebrow="What Tickerbell does"
      lede={
        <p>
          Tickerbell watches markets so you do not have to stare at them. Here is every capability of this install,
          what it does and how it works. Want to see it first? <Link to="/dashboard/demo">Open the demo dashboard</Link>.
        </p>
      }
      sections={sections}
    />
  );
}

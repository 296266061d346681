import type { FeatureIconName } from './feature-list';

// 24 × 24 stroke icons drawn in the text colour (currentColor), decorative: the title beside each
// one names the feature.
const PATHS: Readonly<Record<FeatureIconName, string>> = {
  clock: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 7v5l3 2',
  bell: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0',
  pulse: 'M3 12h4l3-7l4 14l3-7h4',
  list: 'M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01',
  inbox: 'M4 13l2-8h12l2 8v6H4zM4 13h5a3 3 0 0 0 6 0h5',
  positions: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  people: 'M9 11a3.5 3.5 0 1 0 0-7a3.5 3.5 0 0 0 0 7M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 6.5M18 14a6.5 6.5 0 0 1 3.5 6',
  contrast: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 3v18',
  install: 'M12 3v12M7 10l5 5l5-5M4 19h16',
};

export function FeatureIcon({ name, className }: { name: FeatureIconName; className?: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d={PATHS[name]} />
    </svg>
  );
}

// A feature's screens as tabs under its page heading (whales, yields, predictions): links, the
// current one marked, a nav landmark named for the feature.
import { NavLink } from 'react-router-dom';

export interface SectionTab {
  to: string;
  label: string;
  /** Active on this exact path only (the feature's first screen, whose path prefixes the others). */
  end?: boolean;
}

export function SectionTabs({ label, tabs }: { label: string; tabs: readonly SectionTab[] }) {
  const className = ({ isActive }: { isActive: boolean }) => `section-tabs__link${isActive ? ' section-tabs__link--active' : ''}`;
  return (
    <nav className="section-tabs" aria-label={label}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end} className={className}>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}

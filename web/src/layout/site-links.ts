// Every link of the public header and footer, as the product spec lists them (section 2).

export interface SiteLink {
  to: string;
  label: string;
  /** Active only on the exact path; without it, also on every path below. */
  end: boolean;
}

export const HEADER_LINKS: readonly SiteLink[] = [
  { to: '/', label: 'Home', end: true },
  { to: '/features', label: 'Features', end: true },
  // The spec highlights Research for any page under it (/research/cot, ...).
  { to: '/research', label: 'Research', end: false },
  { to: '/pricing', label: 'Pricing', end: true },
  { to: '/about', label: 'About', end: true },
];

export const SIGN_IN_PATH = '/sign-in';
export const SIGN_UP_PATH = '/sign-up';

export interface FooterColumn {
  title: string;
  links: readonly { to: string; label: string }[];
}

export const FOOTER_COLUMNS: readonly FooterColumn[] = [
  {
    title: 'Product',
    links: [
      { to: '/features', label: 'Features' },
      { to: '/pricing', label: 'Pricing' },
      { to: '/dashboard/demo', label: 'Demo' },
      { to: '/guides', label: 'Guides' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/about', label: 'About' },
      { to: '/team', label: 'Team' },
      { to: '/research', label: 'Research' },
      { to: '/contact', label: 'Contact' },
    ],
  },
  {
    title: 'Support',
    links: [
      { to: '/help', label: 'Help Center' },
      { to: '/faq', label: 'FAQ' },
      { to: '/status', label: 'Status' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/terms', label: 'Terms of Service' },
      { to: '/cookies', label: 'Cookie Policy' },
    ],
  },
];

export type SocialNetwork = 'x' | 'linkedin' | 'github';

export interface SocialProfile {
  network: SocialNetwork;
  label: string;
  href: string;
}

export const SOCIAL_PROFILES: readonly SocialProfile[] = [
  { network: 'x', label: 'Tickerbell on X (Twitter)', href: 'https://x.com/tickerbell' },
  { network: 'linkedin', label: 'Tickerbell on LinkedIn', href: 'https://www.linkedin.com/company/tickerbell' },
  { network: 'github', label: 'Tickerbell on GitHub', href: 'https://github.com/tickerbell' },
];

export const TAGLINE = 'Real-time dashboards, audio alerts and professional-grade analysis tools.';

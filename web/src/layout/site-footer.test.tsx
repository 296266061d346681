import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { SiteFooter } from './site-footer';

function renderFooter() {
  return render(
    <MemoryRouter>
      <SiteFooter />
    </MemoryRouter>,
  );
}

function columnLinks(title: string): [string | null, string | null][] {
  const column = screen.getByRole('navigation', { name: title });
  return within(column)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('SiteFooter', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('shows the current year in the copyright line', () => {
    jest.useFakeTimers({ now: new Date('2031-03-04T12:00:00Z') });

    renderFooter();

    expect(screen.getByText('© 2031 Tickerbell. All rights reserved.')).toBeInTheDocument();
  });

  it('lists the Product links, with /dashboard/demo labelled Demo', () => {
    renderFooter();

    expect(columnLinks('Product')).toEqual([
      ['Features', '/features'],
      ['Pricing', '/pricing'],
      ['Demo', '/dashboard/demo'],
      ['Guides', '/guides'],
    ]);
  });

  it('lists the Company, Support and Legal links', () => {
    renderFooter();

    expect(columnLinks('Company').map(([, href]) => href)).toEqual(['/about', '/team', '/research', '/contact']);
    expect(columnLinks('Support').map(([, href]) => href)).toEqual(['/help', '/faq', '/status']);
    expect(columnLinks('Legal').map(([, href]) => href)).toEqual(['/privacy', '/terms', '/cookies']);
  });

  it('links to the X, LinkedIn and GitHub profiles in a new tab', () => {
    renderFooter();

    const social = within(screen.getByRole('list', { name: 'Tickerbell on social media' })).getAllByRole('link');
    expect(social.map((link) => link.getAttribute('href'))).toEqual([
      'https://x.com/tickerbell',
      'https://www.linkedin.com/company/tickerbell',
      'https://github.com/tickerbell',
    ]);
    for (const link of social) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      expect(link).toHaveAccessibleName(/^Tickerbell on .+ \(opens in a new tab\)$/);
    }
  });

  it('shows the tagline and the logo at 55 px', () => {
    renderFooter();

    expect(
      screen.getByText('Real-time dashboards, audio alerts and professional-grade analysis tools.'),
    ).toBeInTheDocument();
    const logo = within(screen.getByRole('contentinfo'))
      .getByRole('link', { name: 'Tickerbell home' })
      .querySelector('svg');
    expect(logo).toHaveAttribute('width', '55');
    expect(logo).toHaveAttribute('height', '55');
  });
});

import { fireEvent, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { TestProviders } from '../../test/providers';
import { SiteHeader } from './site-header';

function CurrentPath() {
  return <p data-testid="current-path">{useLocation().pathname}</p>;
}

function renderHeader(path = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <TestProviders>
        <SiteHeader />
        <Routes>
          <Route path="*" element={<CurrentPath />} />
        </Routes>
      </TestProviders>
    </MemoryRouter>,
  );
}

function mainNav() {
  return within(screen.getByRole('navigation', { name: 'Main' }));
}

function menuToggle() {
  return screen.getByRole('button', { name: 'Menu' });
}

describe('SiteHeader', () => {
  it('shows a skeleton instead of navigation until it has mounted', () => {
    // A server-style render never runs effects: it is exactly what the header shows before mount.
    const container = document.createElement('div');
    container.innerHTML = renderToString(
      <MemoryRouter>
        <TestProviders>
          <SiteHeader />
        </TestProviders>
      </MemoryRouter>,
    );

    expect(container.querySelector('.header-skeleton')).not.toBeNull();
    expect(container.querySelector('header')).toHaveAttribute('aria-busy', 'true');
    expect(within(container).queryByRole('navigation')).toBeNull();
    expect(within(container).queryByText('Sign In')).toBeNull();
    // The logo is there from the first paint.
    expect(within(container).getByRole('link', { name: 'Tickerbell home' })).toHaveAttribute('href', '/');
  });

  it('shows the navigation, Sign In and Sign Up once mounted', () => {
    const { container } = renderHeader();

    expect(container.querySelector('.header-skeleton')).toBeNull();
    expect(screen.getByRole('banner')).toHaveAttribute('aria-busy', 'false');
    const links = mainNav().getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/'],
      ['Features', '/features'],
      ['Research', '/research'],
      ['Pricing', '/pricing'],
      ['About', '/about'],
    ]);
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/sign-in');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/sign-up');
  });

  it('shows the logo at 48 px', () => {
    renderHeader();

    const logo = screen.getByRole('link', { name: 'Tickerbell home' }).querySelector('svg');
    expect(logo).toHaveAttribute('width', '48');
    expect(logo).toHaveAttribute('height', '48');
  });

  it('highlights Research for any page under /research', () => {
    renderHeader('/research/cot');

    expect(mainNav().getByRole('link', { name: 'Research' })).toHaveAttribute('aria-current', 'page');
    expect(mainNav().getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it('highlights Home only on the home page', () => {
    renderHeader('/');

    expect(mainNav().getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(mainNav().getByRole('link', { name: 'Research' })).not.toHaveAttribute('aria-current');
  });

  it('opens and closes the mobile menu with the toggle', () => {
    renderHeader();
    expect(menuToggle()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).toBeNull();

    fireEvent.click(menuToggle());

    expect(menuToggle()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
    expect(screen.getByText('Ready to get started?')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Create Account' })).toHaveAttribute('href', '/sign-up');
    const signIn = screen.getByText('Already have an account?', { exact: false });
    expect(within(signIn).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/sign-in');

    fireEvent.click(menuToggle());

    expect(menuToggle()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).toBeNull();
  });

  it('points the toggle at the menu it controls', () => {
    renderHeader();

    fireEvent.click(menuToggle());

    const menuId = menuToggle().getAttribute('aria-controls');
    expect(menuId).toBeTruthy();
    expect(document.getElementById(menuId ?? '')).toContainElement(screen.getByText('Ready to get started?'));
  });

  it('closes the mobile menu when a link in it is chosen', () => {
    renderHeader('/');
    fireEvent.click(menuToggle());

    const mobileNav = within(screen.getByRole('navigation', { name: 'Mobile' }));
    fireEvent.click(mobileNav.getByRole('link', { name: 'Pricing' }));

    expect(screen.getByTestId('current-path')).toHaveTextContent('/pricing');
    expect(menuToggle()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText('Ready to get started?')).not.toBeVisible();
  });

  it('closes the mobile menu when Create Account is chosen', () => {
    renderHeader('/');
    fireEvent.click(menuToggle());

    fireEvent.click(screen.getByRole('link', { name: 'Create Account' }));

    expect(screen.getByTestId('current-path')).toHaveTextContent('/sign-up');
    expect(menuToggle()).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the mobile menu on Escape and returns focus to the toggle', () => {
    renderHeader();
    fireEvent.click(menuToggle());

    fireEvent.keyDown(document, { key: 'Escape' });

    expect(menuToggle()).toHaveAttribute('aria-expanded', 'false');
    expect(menuToggle()).toHaveFocus();
  });
});

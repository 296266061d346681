import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { removeFetch } from '../../test/fake-fetch';
import { installFakeApi, renderApp } from '../../test/render-app';
import { FOOTER_COLUMNS, HEADER_LINKS } from '../layout/site-links';
import { FEATURES } from './features-page';
import { PLANS } from './pricing-page';

const FORBIDDEN = /lorem|ipsum|placeholder|coming soon|todo|tbd/i;

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

const linkedPaths = [
  ...new Set([...HEADER_LINKS.map((link) => link.to), ...FOOTER_COLUMNS.flatMap((column) => column.links.map((link) => link.to)), '/research/cot']),
].filter((path) => path !== '/status');

describe('every page the header and footer link to', () => {
  it.each(linkedPaths)('%s is a real page with a heading and no filler text', async (path) => {
    installFakeApi(null);
    renderApp(path);

    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).not.toBe('Page not found');
    const main = screen.getByRole('main');
    expect(main.textContent ?? '').not.toMatch(FORBIDDEN);
    expect((main.textContent ?? '').length).toBeGreaterThan(250);
  });
});

describe('features page', () => {
  it('has one section per capability of the spec, each saying how it works', async () => {
    installFakeApi(null);
    renderApp('/features');
    await screen.findByRole('heading', { level: 1, name: 'Features' });

    expect(FEATURES).toHaveLength(15);
    for (const feature of FEATURES) {
      const section = screen.getByRole('region', { name: feature.heading });
      expect(within(section).getByRole('heading', { name: 'How it works' })).toBeInTheDocument();
    }
  });
});

describe('pricing page', () => {
  it('lists Free, Pro and Team with their alert limits, operator-set prices and Stripe billing', async () => {
    installFakeApi(null);
    renderApp('/pricing');
    await screen.findByRole('heading', { level: 1, name: 'Pricing' });

    expect(PLANS.map((plan) => plan.name)).toEqual(['Free', 'Pro', 'Team']);
    for (const plan of PLANS) {
      expect(screen.getByRole('heading', { level: 2, name: plan.name })).toBeInTheDocument();
      expect(screen.getByText(plan.alertLimit)).toBeInTheDocument();
    }
    expect(screen.getByRole('main')).toHaveTextContent(/operator of each install sets the prices/);
    expect(screen.getByRole('main')).toHaveTextContent(/Stripe/);
  });
});

describe('COT research page', () => {
  it('states the definitions used by the analytics', async () => {
    installFakeApi(null);
    renderApp('/research/cot');
    await screen.findByRole('heading', { level: 1 });
    const text = screen.getByRole('main').textContent ?? '';

    expect(text).toContain('(long − short) ÷ open interest × 100, rounded to 2 decimals');
    expect(text).toContain('dealer + asset manager');
    expect(text).toContain('100 × count(values ≤ current) ÷ count(values)');
    expect(text).toContain('156 reports');
    expect(text).toContain('26- or 52-report window');
    expect(text).toContain('100 × (current − min) ÷ (max − min)');
    expect(text).toContain('the index is 50');
    expect(text).toMatch(/90 or more.*10 or less/);
    expect(text).toContain('leveraged funds percentile − asset managers percentile');
    expect(text).toContain('fewer than 26 reports');
  });

  it('highlights Research in the header', async () => {
    installFakeApi(null);
    renderApp('/research/cot');
    await screen.findByRole('heading', { level: 1 });

    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Research' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('contact page', () => {
  async function openContact() {
    renderApp('/contact');
    await screen.findByRole('heading', { level: 1, name: 'Contact us' });
  }

  function fill(name: string, email: string, message: string): void {
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: message } });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
  }

  it('checks every field before sending', async () => {
    const fetchMock = installFakeApi(null);
    await openContact();

    fill('', 'not-an-email', 'short');

    expect(screen.getByText('Enter your name.')).toBeInTheDocument();
    expect(screen.getByText(/valid email address/)).toBeInTheDocument();
    expect(screen.getByText(/at least 10 characters/)).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalledWith('/api/contact', expect.anything());
  });

  it('posts the message as JSON to /api/contact and confirms', async () => {
    const fetchMock = installFakeApi(null, (path) => (path === '/api/contact' ? { status: 201, body: { ok: true } } : { status: 404 }));
    await openContact();

    fill('Ada Lovelace', 'ada@example.com', 'Please add the Tokyo lunch break to alerts.');

    expect(await screen.findByRole('heading', { name: 'Thanks, your message was sent.' })).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([path]) => path === '/api/contact');
    expect(call?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'Please add the Tokyo lunch break to alerts.',
    });
  });

  it("shows the api's error message when sending fails", async () => {
    installFakeApi(null, (path) =>
      path === '/api/contact' ? { status: 429, body: { error: { code: 'rate_limited', message: 'Too many messages: try again in an hour' } } } : { status: 404 },
    );
    await openContact();

    fill('Ada Lovelace', 'ada@example.com', 'Please add the Tokyo lunch break to alerts.');

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too many messages: try again in an hour'));
  });
});

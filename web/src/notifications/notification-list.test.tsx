import { render, screen } from '@testing-library/react';
import { NotificationList, notificationLink } from './notification-list';

describe('notification list', () => {
  it('shows the link a notification carries beside its short message (a whale alert’s transaction), https only', () => {
    const href = `https://etherscan.io/tx/0x${'ab'.repeat(32)}`;
    render(
      <NotificationList
        emptyText="None."
        notifications={[
          {
            id: '1',
            read: false,
            timestamp: Date.parse('2025-03-04T10:20:00Z'),
            type: 'warning',
            title: 'Whale alert',
            message: '1,250 ETH ($3.9M) Binance 14 → unknown wallet 0x12ab…9f0e · exchange outflow',
            details: { kind: 'whale_alert', link: { href, label: 'View the transaction on Etherscan' } },
          },
          { id: '2', read: true, timestamp: Date.parse('2025-03-04T10:00:00Z'), type: 'info', title: 'Plain', message: 'No link here' },
        ]}
      />,
    );
    const link = screen.getByRole('link', { name: 'View the transaction on Etherscan (opens in a new tab)' });
    expect(link).toHaveAttribute('href', href);
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(notificationLink({ link: { href: 'javascript:alert(1)', label: 'x' } })).toBeNull();
    expect(notificationLink({ link: 'https://etherscan.io' })).toBeNull();
  });
});

import { act, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { NotificationProvider } from '../notifications/notification-provider';
import { useNotificationStream, type EventSourceFactory, type NotificationEventSource } from '../notifications/use-notification-stream';
import { parseStreamPrice, subscribeLivePrices, type LivePrice } from './live-prices';

jest.mock('react-toastify', () => ({ toast: jest.fn() }));

/** An EventSource stand-in that dispatches by event type, as the browser's does. */
class TypedSource implements NotificationEventSource {
  static opened: TypedSource[] = [];
  readonly listeners = new Map<string, Set<(event: MessageEvent) => void>>();
  closed = false;
  constructor() {
    TypedSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
  }
  removeEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.get(type)?.delete(listener);
  }
  close(): void {
    this.closed = true;
  }
  emit(type: string, data: string): void {
    for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, { data }));
  }
}

const factory: EventSourceFactory = () => new TypedSource();

function Stream() {
  useNotificationStream(true, factory);
  return null;
}

const BTC = { symbol: 'BTCUSDT', price: '60740.5', at: '2026-11-20T10:00:00.000Z', change24hPercent: '1.25', source: 'simulated', simulated: true };

describe('live prices on the notification stream', () => {
  beforeEach(() => {
    TypedSource.opened = [];
  });

  it('hands `price` events of the one stream to every subscriber, and none after unsubscribing', () => {
    const seen: LivePrice[] = [];
    const alsoSeen: string[] = [];
    const unsubscribe = subscribeLivePrices((price) => seen.push(price));
    const unsubscribeOther = subscribeLivePrices((price) => alsoSeen.push(price.price));
    render(
      <MemoryRouter>
        <NotificationProvider>
          <Stream />
        </NotificationProvider>
      </MemoryRouter>,
    );
    expect(TypedSource.opened).toHaveLength(1);
    const source = TypedSource.opened[0] as TypedSource;

    act(() => source.emit('price', JSON.stringify(BTC)));
    act(() => source.emit('price', 'not json'));
    act(() => source.emit('price', JSON.stringify({ symbol: 'ETHUSDT', price: 'abc', at: BTC.at })));
    unsubscribe();
    act(() => source.emit('price', JSON.stringify({ ...BTC, price: '60800' })));
    unsubscribeOther();

    expect(seen).toEqual([BTC]);
    expect(alsoSeen).toEqual(['60740.5', '60800']);
  });

  it('reads prices as decimal strings and leaves out what does not fit', () => {
    expect(parseStreamPrice(JSON.stringify({ ...BTC, price: 60740.5, change24hPercent: null, simulated: undefined }))).toEqual({
      ...BTC,
      price: '60740.5',
      change24hPercent: null,
      simulated: false,
    });
    expect(parseStreamPrice(JSON.stringify({ price: '1', at: BTC.at }))).toBeNull();
    expect(parseStreamPrice(JSON.stringify({ ...BTC, price: '' }))).toBeNull();
  });
});

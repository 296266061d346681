import { DARK_SCHEME_QUERY, followSystemTheme } from './system-theme';

interface FakeQuery {
  list: MediaQueryList;
  setDark(dark: boolean): void;
  listenerCount(): number;
}

function fakeMediaQuery(initiallyDark: boolean): FakeQuery {
  const listeners = new Set<() => void>();
  const state = { matches: initiallyDark };
  const list: Partial<MediaQueryList> = {
    media: DARK_SCHEME_QUERY,
    get matches() {
      return state.matches;
    },
    addEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
      if (typeof listener === 'function') listeners.add(() => listener(new Event('change')));
    },
    removeEventListener: () => listeners.clear(),
  };
  return {
    list: list as MediaQueryList,
    setDark(dark) {
      state.matches = dark;
      for (const listener of listeners) listener();
    },
    listenerCount: () => listeners.size,
  };
}

describe('followSystemTheme', () => {
  it('applies dark when the system prefers dark', () => {
    const root = document.createElement('html');
    const query = fakeMediaQuery(true);

    followSystemTheme(root, () => query.list);

    expect(root.dataset.theme).toBe('dark');
  });

  it('follows the system when the preference changes, until stopped', () => {
    const root = document.createElement('html');
    const query = fakeMediaQuery(false);
    const stop = followSystemTheme(root, () => query.list);
    expect(root.dataset.theme).toBe('light');

    query.setDark(true);
    expect(root.dataset.theme).toBe('dark');

    stop();
    expect(query.listenerCount()).toBe(0);
  });

  it('falls back to light where matchMedia does not exist', () => {
    const root = document.createElement('html');

    followSystemTheme(root, null);

    expect(root.dataset.theme).toBe('light');
  });
});

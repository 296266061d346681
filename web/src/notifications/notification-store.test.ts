import {
  MAX_NOTIFICATIONS,
  NOTIFICATIONS_STORAGE_KEY,
  SENT_TRACKING_STORAGE_KEY,
  loadStoredNotifications,
  markSentOnce,
  notificationsReducer,
  saveNotifications,
  unreadCount,
  type AppNotification,
} from './notification-store';

function note(id: string, timestamp: number, read = false): AppNotification {
  return { id, timestamp, read, title: `Title ${id}`, message: `Message ${id}`, type: 'info' };
}

function storageWith(value: string | null): Storage {
  const data = new Map<string, string>();
  if (value !== null) data.set(NOTIFICATIONS_STORAGE_KEY, value);
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, v: string) => void data.set(key, v),
    removeItem: (key: string) => void data.delete(key),
    clear: () => data.clear(),
    key: () => null,
    get length() {
      return data.size;
    },
  };
}

describe('notificationsReducer', () => {
  it('keeps the newest first', () => {
    let state: AppNotification[] = [];
    state = notificationsReducer(state, { type: 'add', notification: note('a', 100) });
    state = notificationsReducer(state, { type: 'add', notification: note('b', 300) });
    state = notificationsReducer(state, { type: 'add', notification: note('c', 200) });

    expect(state.map((n) => n.id)).toEqual(['b', 'c', 'a']);
  });

  it('keeps at most 50, dropping the oldest', () => {
    let state: AppNotification[] = [];
    for (let i = 1; i <= MAX_NOTIFICATIONS + 5; i++) state = notificationsReducer(state, { type: 'add', notification: note(`n${i}`, i) });

    expect(state).toHaveLength(50);
    expect(state[0]?.id).toBe('n55');
    expect(state[49]?.id).toBe('n6');
  });

  it('keeps one copy of a notification that arrives twice', () => {
    let state = notificationsReducer([], { type: 'add', notification: note('a', 1) });
    state = notificationsReducer(state, { type: 'add', notification: note('a', 1) });

    expect(state).toHaveLength(1);
  });

  it('marks one read, then all read', () => {
    const state = [note('a', 3), note('b', 2), note('c', 1)];

    const one = notificationsReducer(state, { type: 'markRead', id: 'b' });
    expect(one.map((n) => n.read)).toEqual([false, true, false]);
    expect(unreadCount(one)).toBe(2);

    const all = notificationsReducer(one, { type: 'markAllRead' });
    expect(unreadCount(all)).toBe(0);
  });

  it('empties the list on clear', () => {
    expect(notificationsReducer([note('a', 1)], { type: 'clear' })).toEqual([]);
  });
});

describe('stored notifications', () => {
  let errorSpy: jest.SpyInstance;
  beforeEach(() => {
    errorSpy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => errorSpy.mockRestore());

  it('round-trips through storage, newest first', () => {
    const storage = storageWith(null);
    saveNotifications(storage, [note('old', 1), note('new', 2, true)]);

    expect(loadStoredNotifications(storage)).toEqual([note('new', 2, true), note('old', 1)]);
    expect(errorSpy).not.toHaveBeenCalled();
  });

  it('ignores stored data that is not JSON, with a console error', () => {
    expect(loadStoredNotifications(storageWith('{not json'))).toEqual([]);
    expect(errorSpy).toHaveBeenCalledTimes(1);
  });

  it('ignores stored data that is not a list, with a console error', () => {
    expect(loadStoredNotifications(storageWith('{"id":"a"}'))).toEqual([]);
    expect(errorSpy).toHaveBeenCalledTimes(1);
  });

  it('drops entries that do not parse and keeps the rest', () => {
    const stored = JSON.stringify([note('good', 5), { id: 'bad', title: 3 }, { ...note('odd', 4), type: 'panic' }]);

    expect(loadStoredNotifications(storageWith(stored)).map((n) => n.id)).toEqual(['good']);
    expect(errorSpy).toHaveBeenCalledTimes(2);
  });

  it('keeps nothing when there is nothing stored, quietly', () => {
    expect(loadStoredNotifications(storageWith(null))).toEqual([]);
    expect(errorSpy).not.toHaveBeenCalled();
  });
});

describe('sent tracking', () => {
  it('says true once per key per day, under its own storage key', () => {
    const storage = storageWith(null);

    expect(markSentOnce(storage, 'nyse:opened', '2026-11-20')).toBe(true);
    expect(markSentOnce(storage, 'nyse:opened', '2026-11-20')).toBe(false);
    expect(markSentOnce(storage, 'nyse:opened', '2026-11-21')).toBe(true);
    expect(JSON.parse(storage.getItem(SENT_TRACKING_STORAGE_KEY) ?? '{}')).toEqual({ 'nyse:opened': '2026-11-21' });
    expect(storage.getItem(NOTIFICATIONS_STORAGE_KEY)).toBeNull();
  });
});

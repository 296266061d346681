import session from 'express-session';
import { SESSION_TOUCH_INTERVAL_MS, throttledTouch } from '../../src/accounts/accounts';

// Rolling sessions: the store's touch (an UPDATE of the session row with connect-pg-simple) runs at
// most once an interval per session and process, not on every request. express-session's own
// MemoryStore stands in for the PostgreSQL store here: only the calls to its touch are counted.

describe('throttledTouch', () => {
  const cookie = { originalMaxAge: 1000, expires: new Date(Date.now() + 1000), httpOnly: true, path: '/' } as session.Cookie;
  const sess = { cookie } as session.SessionData;

  function counted(): { store: session.MemoryStore; touches: string[] } {
    const store = new session.MemoryStore();
    const touches: string[] = [];
    const touch = store.touch.bind(store);
    store.touch = (sid, data, callback) => {
      touches.push(sid);
      touch(sid, data, callback);
    };
    return { store: throttledTouch(store), touches };
  }

  afterEach(() => jest.restoreAllMocks());

  it('touches a session once an interval, each session on its own, and calls back every time', async () => {
    const { store, touches } = counted();
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const callbacks: string[] = [];
    store.touch('a', sess, () => callbacks.push('a1'));
    store.touch('a', sess, () => callbacks.push('a2'));
    store.touch('b', sess, () => callbacks.push('b1'));
    now += SESSION_TOUCH_INTERVAL_MS - 1;
    store.touch('a', sess, () => callbacks.push('a3'));
    expect(touches).toEqual(['a', 'b']);
    now += 1;
    store.touch('a', sess, () => callbacks.push('a4'));
    expect(touches).toEqual(['a', 'b', 'a']);
    // The MemoryStore answers on a later turn of the event loop; the skipped touches at once.
    await new Promise((resolve) => setImmediate(resolve));
    expect(callbacks.sort()).toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
  });

  it('forgets a destroyed session: the same id touched again writes at once', () => {
    const { store, touches } = counted();
    jest.spyOn(Date, 'now').mockReturnValue(5_000_000);
    store.touch('a', sess);
    store.destroy('a');
    store.touch('a', sess);
    expect(touches).toEqual(['a', 'a']);
  });
});

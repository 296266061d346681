// Settings → Telegram: link a Telegram chat with a one-time code sent to the server's bot, see the
// linked chat, unlink it. When the server has no bot (TELEGRAM_BOT_TOKEN unset) the panel says so.
import { useCallback, useEffect, useState } from 'react';
import type { TelegramCodeResponse, TelegramStatusResponse } from '@tickerbell/jobs/notifications/shapes';
import { messageOf } from '../accounts/auth-client';
import { createTelegramCode, fetchTelegramStatus, unlinkTelegram } from './notifications-client';

/** While a code is shown, the link is looked for this often (the bot links within seconds). */
export const TELEGRAM_LINK_CHECK_MS = 4000;

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function BotLink({ username }: { username: string }) {
  return (
    <a href={`https://t.me/${username}`} target="_blank" rel="noreferrer">
      @{username}
    </a>
  );
}

export function TelegramPanel() {
  const [status, setStatus] = useState<TelegramStatusResponse | null>(null);
  const [code, setCode] = useState<TelegramCodeResponse | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      const next = await fetchTelegramStatus(signal);
      setStatus(next);
      setFailure(null);
      if (next.linked) setCode(null);
    } catch (error) {
      if (!signal?.aborted) setFailure(messageOf(error));
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  // While a code is shown: look for the link now and then, until it is linked or the code expires.
  useEffect(() => {
    if (!code) return;
    const expires = Date.parse(code.expiresAt);
    const timer = setInterval(() => {
      if (Date.now() > expires) {
        clearInterval(timer);
        return;
      }
      void load();
    }, TELEGRAM_LINK_CHECK_MS);
    return () => clearInterval(timer);
  }, [code, load]);

  const run = async (action: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const newCode = () => run(async () => setCode(await createTelegramCode()));
  const unlink = () =>
    run(async () => {
      setStatus(await unlinkTelegram());
      setCode(null);
    });

  let body;
  if (!status) {
    body = failure ? (
      <button type="button" className="button button--secondary" onClick={() => void load()}>
        Try again
      </button>
    ) : (
      <p className="form-field__hint">Loading…</p>
    );
  } else if (!status.configured || !status.botUsername) {
    body = <p className="form-field__hint">Telegram is not configured on this server, so nothing is sent there. Notifications still arrive in the app.</p>;
  } else if (status.linked) {
    body = (
      <>
        <p className="telegram-panel__state">
          <span className="telegram-panel__badge">Linked</span>
          {status.chatUsername ? `@${status.chatUsername}` : 'A Telegram chat'}
          {status.linkedAt ? `, since ${DATE.format(new Date(status.linkedAt))}` : ''}
        </p>
        <p className="form-field__hint">
          Alerts you send to Telegram arrive there from <BotLink username={status.botUsername} />.
        </p>
        <div className="telegram-panel__actions">
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => void unlink()}>
            Unlink Telegram
          </button>
        </div>
      </>
    );
  } else if (code) {
    body = (
      <>
        <p>
          Your link code for <BotLink username={code.botUsername} />:
        </p>
        <p className="telegram-panel__code">
          <code aria-label="Link code">{code.code}</code>
        </p>
        <ol className="telegram-panel__steps">
          <li>
            <span>
              Open the chat with <BotLink username={code.botUsername} />:
            </span>{' '}
            <a className="button button--primary" href={code.link} target="_blank" rel="noreferrer">
              Open in Telegram
            </a>
          </li>
          <li>
            Press <strong>Start</strong> there, or send the bot <code>/start {code.code}</code>.
          </li>
        </ol>
        <p className="form-field__hint">
          The code works once, until {TIME.format(new Date(code.expiresAt))} (15 minutes). This page shows the link once the bot has it.
        </p>
        <div className="telegram-panel__actions">
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => void run(() => load())}>
            Check again
          </button>
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => void newCode()}>
            New code
          </button>
        </div>
      </>
    );
  } else {
    body = (
      <>
        <p>
          Get your alerts in a Telegram chat: link it with the bot <BotLink username={status.botUsername} />.
        </p>
        <div className="telegram-panel__actions">
          <button type="button" className="button button--primary" disabled={busy} onClick={() => void newCode()}>
            Get a link code
          </button>
        </div>
      </>
    );
  }

  return (
    <section id="telegram" className="dashboard-panel telegram-panel" aria-labelledby="telegram-title">
      <h2 id="telegram-title">Telegram</h2>
      {failure && (
        <p className="form-message form-message--error" role="alert">
          {failure}
        </p>
      )}
      {body}
    </section>
  );
}

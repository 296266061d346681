// The spec client's crypto alert check (spec sections 7 and 9): POST /api/alerts/crypto/check every
// 30 s while the tab is visible, speaking the firings of alerts with useAudio. The notification
// itself reaches the user through the stream and the notification centre (the server writes it),
// so the check only speaks; each firing once, shared with the stream through alert-speech.
import { useEffect, useRef } from 'react';
import { ApiError } from '../api/client';
import { checkTriggeredAlerts, type CheckedAlert } from './alerts-client';
import { speakAlertFiring } from './alert-speech';

export const ALERT_CHECK_INTERVAL_MS = 30_000;

export interface AlertCheckOptions {
  intervalMs?: number;
  check?: (userId: string, signal: AbortSignal) => Promise<CheckedAlert[]>;
}

/** What a firing from the check says aloud: its audio message, else the notification text. */
export function spokenTextOf(alert: CheckedAlert): string {
  return alert.audioMessage ?? alert.message ?? `${alert.name} Alert Triggered`;
}

export function speakCheckedAlerts(alerts: readonly CheckedAlert[]): void {
  for (const alert of alerts) {
    if (alert.useAudio) speakAlertFiring({ logId: alert.logId, text: spokenTextOf(alert), voiceId: alert.audioVoiceId });
  }
}

/** An HTTP answer outside 2xx (not a network failure, not an unreadable 200). */
function isNotOk(error: unknown): boolean {
  return error instanceof ApiError && error.status !== 0 && (error.status < 200 || error.status > 299);
}

function visible(): boolean {
  return document.visibilityState === 'visible';
}

/** Polls while `userId` is set (signed in) and the tab is visible; a hidden tab asks nothing. */
export function useAlertCheck(userId: string | null, options: AlertCheckOptions = {}): void {
  const { intervalMs = ALERT_CHECK_INTERVAL_MS } = options;
  const checkRef = useRef(options.check ?? checkTriggeredAlerts);
  checkRef.current = options.check ?? checkTriggeredAlerts;

  useEffect(() => {
    if (userId === null) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    let controller: AbortController | undefined;
    let running = false;

    const runCheck = async (): Promise<void> => {
      // One check at a time: a slow api must not pile requests up.
      if (running || !visible()) return;
      running = true;
      controller = new AbortController();
      const { signal } = controller;
      try {
        speakCheckedAlerts(await checkRef.current(userId, signal));
      } catch (error) {
        // Not-ok answers are ignored (spec section 8); anything else is only logged.
        if (!signal.aborted && !isNotOk(error)) console.error('Alert check failed', error);
      } finally {
        running = false;
      }
    };

    const start = (): void => {
      if (timer !== undefined || !visible()) return;
      void runCheck();
      timer = setInterval(() => void runCheck(), intervalMs);
    };
    const stop = (): void => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = (): void => (visible() ? start() : stop());

    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      stop();
      controller?.abort();
    };
  }, [userId, intervalMs]);
}

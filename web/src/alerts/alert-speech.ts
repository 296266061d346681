// Spoken alerts: each firing is spoken once, whether it arrives on the live stream (details.alertLogId)
// or from the compatibility check (logId), in this tab or another one. The ids already spoken are
// kept in local storage, newest last, bounded so the list never grows without end.
import { speakAlert } from '../notifications/notification-sound';

export const SPOKEN_ALERT_LOGS_KEY = 'spokenAlertLogs';
/** Far more than can fire between two visits; older ids are forgotten first. */
export const SPOKEN_ALERT_LOGS_MAX = 200;

// When storage is unavailable (private mode, quota): at least this tab speaks each firing once.
const memory = new Set<string>();

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function readIds(store: Storage): string[] {
  try {
    const value: unknown = JSON.parse(store.getItem(SPOKEN_ALERT_LOGS_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Records a firing as spoken; true the first time, false when it was already. */
export function claimAlertLog(logId: string): boolean {
  const store = storage();
  if (!store) {
    if (memory.has(logId)) return false;
    memory.add(logId);
    return true;
  }
  const ids = readIds(store);
  if (ids.includes(logId) || memory.has(logId)) return false;
  ids.push(logId);
  try {
    store.setItem(SPOKEN_ALERT_LOGS_KEY, JSON.stringify(ids.slice(-SPOKEN_ALERT_LOGS_MAX)));
  } catch (error) {
    memory.add(logId);
    console.error('Could not remember a spoken alert', error);
  }
  return true;
}

export interface AlertFiring {
  /** The alert_logs id; null when the source did not send one (then it cannot be deduplicated). */
  logId: string | null;
  text: string;
  voiceId: string | null;
}

/**
 * Speaks a firing of an alert with useAudio (subject to the 768 px and soundEnabled rules of
 * speakAlert), unless it was spoken already. A firing that could not be spoken (narrow window,
 * sound off) still counts: it is not read out later when the window grows.
 */
export function speakAlertFiring(firing: AlertFiring): boolean {
  if (firing.logId !== null && !claimAlertLog(firing.logId)) return false;
  return speakAlert(firing.text, true, firing.voiceId);
}

export function speechAvailable(): boolean {
  return typeof window !== 'undefined' && 'speechSynthesis' in window && typeof SpeechSynthesisUtterance === 'function';
}

/** The voice an alert asked for: matched by voiceURI, then by name. */
export function findVoice(voices: readonly SpeechSynthesisVoice[], voiceId: string | null): SpeechSynthesisVoice | undefined {
  if (!voiceId) return undefined;
  return voices.find((voice) => voice.voiceURI === voiceId) ?? voices.find((voice) => voice.name === voiceId);
}

export type TestVoiceResult = { ok: true } | { ok: false; message: string };

/** The dialog's "Test voice": speaks now with the chosen voice (an explicit click: no width rule). */
export function testVoice(text: string, voiceId: string | null): TestVoiceResult {
  if (!speechAvailable()) return { ok: false, message: 'This browser cannot speak: it has no speech synthesis. Spoken alerts will not play here.' };
  try {
    const utterance = new SpeechSynthesisUtterance(text);
    const voice = findVoice(window.speechSynthesis.getVoices(), voiceId);
    if (voice) utterance.voice = voice;
    utterance.onerror = (event) => console.error('Test voice failed', event.error);
    // A click while an earlier test still speaks restarts rather than queues.
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(utterance);
    return { ok: true };
  } catch (error) {
    console.error('Test voice failed', error);
    return { ok: false, message: 'The browser refused to speak.' };
  }
}

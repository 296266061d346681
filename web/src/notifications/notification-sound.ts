// Notification sounds and spoken alerts (product spec sections 7, 8 and 9).
import type { NotificationType } from '@tickerbell/jobs/notifications/shapes';

export const SOUND_ENABLED_KEY = 'soundEnabled';
export const AUDIO_VOICE_KEY = 'audioVoiceId';
/** Spoken alerts only on windows wider than this (spec section 9). */
export const SPEECH_MIN_WINDOW_WIDTH = 768;

/** Files in web/public/sounds/, one per notification type; info uses the default sound. */
export const SOUND_FILES: Readonly<Record<NotificationType, string>> = {
  warning: '/sounds/warning.wav',
  error: '/sounds/error.wav',
  success: '/sounds/success.wav',
  info: '/sounds/notification.wav',
};

export function isSoundEnabled(storage: Pick<Storage, 'getItem'> = window.localStorage): boolean {
  try {
    return storage.getItem(SOUND_ENABLED_KEY) !== 'false';
  } catch {
    return true;
  }
}

export function setSoundEnabled(enabled: boolean, storage: Pick<Storage, 'setItem'> = window.localStorage): void {
  try {
    storage.setItem(SOUND_ENABLED_KEY, enabled ? 'true' : 'false');
  } catch (error) {
    console.error('Could not save the sound setting', error);
  }
}

/** Abort (a newer sound interrupted it) and autoplay refusals are normal; others are logged. */
export function reportPlaybackError(error: unknown): void {
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError' || name === 'NotAllowedError') return;
  console.error('Notification sound failed to play', error);
}

export type AudioFactory = (src: string) => Pick<HTMLAudioElement, 'play'>;

const browserAudio: AudioFactory = (src) => new Audio(src);

export function playNotificationSound(type: NotificationType, createAudio: AudioFactory = browserAudio): void {
  if (!isSoundEnabled()) return;
  try {
    void createAudio(SOUND_FILES[type]).play().catch(reportPlaybackError);
  } catch (error) {
    reportPlaybackError(error);
  }
}

export function shouldSpeak(useAudio: boolean): boolean {
  return (
    useAudio &&
    typeof window !== 'undefined' &&
    'speechSynthesis' in window &&
    window.innerWidth > SPEECH_MIN_WINDOW_WIDTH &&
    isSoundEnabled()
  );
}

/**
 * Speaks `text` when useAudio is set, the window is wide enough and sound is on, with the alert's
 * voice (`voiceId`: a voiceURI or name) or else the one saved under AUDIO_VOICE_KEY.
 */
export function speakAlert(text: string, useAudio: boolean, alertVoiceId?: string | null): boolean {
  if (!shouldSpeak(useAudio)) return false;
  try {
    const utterance = new SpeechSynthesisUtterance(text);
    const voiceId = alertVoiceId || window.localStorage.getItem(AUDIO_VOICE_KEY);
    if (voiceId) {
      const voice = window.speechSynthesis.getVoices().find((v) => v.voiceURI === voiceId || v.name === voiceId);
      if (voice) utterance.voice = voice;
    }
    utterance.onerror = (event) => console.error('Spoken alert failed', event.error);
    window.speechSynthesis.speak(utterance);
    return true;
  } catch (error) {
    console.error('Spoken alert failed', error);
    return false;
  }
}

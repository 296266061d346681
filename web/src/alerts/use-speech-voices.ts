import { useEffect, useState } from 'react';
import { speechAvailable } from './alert-speech';

export interface SpeechVoices {
  /** False when the browser has no speech synthesis at all. */
  supported: boolean;
  voices: readonly SpeechSynthesisVoice[];
}

/** The browser's voices; many browsers load them late and announce it with `voiceschanged`. */
export function useSpeechVoices(): SpeechVoices {
  const supported = speechAvailable();
  const [voices, setVoices] = useState<readonly SpeechSynthesisVoice[]>(() => (supported ? window.speechSynthesis.getVoices() : []));
  useEffect(() => {
    if (!supported) return;
    const synth = window.speechSynthesis;
    const update = (): void => setVoices(synth.getVoices());
    update();
    synth.addEventListener('voiceschanged', update);
    return () => synth.removeEventListener('voiceschanged', update);
  }, [supported]);
  return { supported, voices };
}

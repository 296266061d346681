// jsdom has no Web Speech API. This stand-in records what would be spoken and with which voice,
// and loads its voices late (like Chrome) so `voiceschanged` handling is exercised.

export interface FakeVoice {
  name: string;
  voiceURI: string;
  lang: string;
  default: boolean;
  localService: boolean;
}

export class FakeUtterance {
  text: string;
  voice: FakeVoice | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  constructor(text: string) {
    this.text = text;
  }
}

export const SAMPLE_VOICES: readonly FakeVoice[] = [
  { name: 'Daniel', voiceURI: 'com.apple.voice.Daniel', lang: 'en-GB', default: true, localService: true },
  { name: 'Samantha', voiceURI: 'com.apple.voice.Samantha', lang: 'en-US', default: false, localService: true },
];

export interface FakeSpeech {
  speak: jest.Mock<void, [FakeUtterance]>;
  cancel: jest.Mock<void, []>;
  /** Makes the voices available and fires `voiceschanged`. */
  loadVoices: (voices?: readonly FakeVoice[]) => void;
  /** What was spoken, in order, with the voice's URI (null: browser default). */
  spoken: () => { text: string; voice: string | null }[];
}

export function installSpeech({ voicesLoaded = true }: { voicesLoaded?: boolean } = {}): FakeSpeech {
  let voices: readonly FakeVoice[] = voicesLoaded ? SAMPLE_VOICES : [];
  const target = new EventTarget();
  const speak = jest.fn<void, [FakeUtterance]>();
  const cancel = jest.fn<void, []>();
  const synth = {
    speak,
    cancel,
    getVoices: () => voices,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
  };
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true, writable: true });
  Object.defineProperty(globalThis, 'SpeechSynthesisUtterance', { value: FakeUtterance, configurable: true, writable: true });
  return {
    speak,
    cancel,
    loadVoices: (next = SAMPLE_VOICES) => {
      voices = next;
      target.dispatchEvent(new Event('voiceschanged'));
    },
    spoken: () => speak.mock.calls.map(([utterance]) => ({ text: utterance.text, voice: utterance.voice?.voiceURI ?? null })),
  };
}

export function removeSpeech(): void {
  Reflect.deleteProperty(window, 'speechSynthesis');
  Reflect.deleteProperty(globalThis, 'SpeechSynthesisUtterance');
}

import {
  AUDIO_VOICE_KEY,
  SOUND_ENABLED_KEY,
  SOUND_FILES,
  playNotificationSound,
  reportPlaybackError,
  speakAlert,
} from './notification-sound';

function namedError(name: string): Error {
  const error = new Error(name);
  error.name = name;
  return error;
}

beforeEach(() => window.localStorage.clear());

describe('playNotificationSound', () => {
  it('plays the file for the notification type from /sounds/', () => {
    const play = jest.fn(async () => undefined);
    const createAudio = jest.fn(() => ({ play }));

    playNotificationSound('warning', createAudio);
    playNotificationSound('info', createAudio);

    expect(createAudio).toHaveBeenNthCalledWith(1, '/sounds/warning.wav');
    expect(createAudio).toHaveBeenNthCalledWith(2, '/sounds/notification.wav');
    expect(play).toHaveBeenCalledTimes(2);
    expect(Object.values(SOUND_FILES).every((file) => file.startsWith('/sounds/'))).toBe(true);
  });

  it('stays silent when soundEnabled is "false"', () => {
    window.localStorage.setItem(SOUND_ENABLED_KEY, 'false');
    const createAudio = jest.fn(() => ({ play: jest.fn(async () => undefined) }));

    playNotificationSound('error', createAudio);

    expect(createAudio).not.toHaveBeenCalled();
  });
});

describe('reportPlaybackError', () => {
  it('ignores abort and autoplay refusals and logs anything else', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);

    reportPlaybackError(namedError('AbortError'));
    reportPlaybackError(namedError('NotAllowedError'));
    expect(spy).not.toHaveBeenCalled();

    reportPlaybackError(namedError('NotSupportedError'));
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});

describe('speakAlert', () => {
  const speak = jest.fn();
  const voices = [
    { name: 'Daniel', voiceURI: 'com.apple.daniel' },
    { name: 'Samantha', voiceURI: 'com.apple.samantha' },
  ];

  class FakeUtterance {
    text: string;
    voice: unknown = null;
    onerror: unknown = null;
    constructor(text: string) {
      this.text = text;
    }
  }

  beforeAll(() => {
    Object.assign(window, { speechSynthesis: { speak, getVoices: () => voices } });
    Object.assign(globalThis, { SpeechSynthesisUtterance: FakeUtterance });
  });

  afterAll(() => {
    Reflect.deleteProperty(window, 'speechSynthesis');
    Reflect.deleteProperty(globalThis, 'SpeechSynthesisUtterance');
  });

  beforeEach(() => {
    speak.mockClear();
    window.innerWidth = 1280;
  });

  it('speaks with the chosen voice on a wide window when useAudio is set', () => {
    window.localStorage.setItem(AUDIO_VOICE_KEY, 'com.apple.samantha');

    expect(speakAlert('BTC above 70k', true)).toBe(true);

    const utterance = speak.mock.calls[0]?.[0] as FakeUtterance;
    expect(utterance.text).toBe('BTC above 70k');
    expect(utterance.voice).toBe(voices[1]);
  });

  it('does not speak without useAudio, at 768 px or narrower, or with sound off', () => {
    expect(speakAlert('x', false)).toBe(false);
    window.innerWidth = 768;
    expect(speakAlert('x', true)).toBe(false);
    window.innerWidth = 1280;
    window.localStorage.setItem(SOUND_ENABLED_KEY, 'false');
    expect(speakAlert('x', true)).toBe(false);
    expect(speak).not.toHaveBeenCalled();
  });
});

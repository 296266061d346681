import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks the Encoding API, which react-router reads when it is imported.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom does not implement scrolling; the router's scroll restoration calls it on navigation.
Object.defineProperty(window, 'scrollTo', { value: () => undefined, writable: true });

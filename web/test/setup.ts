import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks the Encoding API, which react-router reads when it is imported.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom does not implement scrolling; the router's scroll restoration calls it on navigation.
Object.defineProperty(window, 'scrollTo', { value: () => undefined, writable: true });

// jsdom has no canvas backend; answer like a browser without 2D canvas support instead of
// printing jsdom's "not implemented" error.
Object.defineProperty(HTMLCanvasElement.prototype, 'getContext', { value: () => null, writable: true });

// jsdom has no Fetch API classes; react-router's data routers build a Request for every
// navigation (GET, no body), so a minimal stand-in is enough.
if (typeof globalThis.Request === 'undefined') {
  class MinimalRequest {
    readonly url: string;
    readonly method: string;
    readonly signal: AbortSignal;
    constructor(input: string | URL, init: { method?: string; signal?: AbortSignal } = {}) {
      this.url = String(input);
      this.method = init.method ?? 'GET';
      this.signal = init.signal ?? new AbortController().signal;
    }
  }
  Object.assign(globalThis, { Request: MinimalRequest });
}

// Lazy route chunks load through swc on first use: on a loaded 2-core machine the first findBy*
// of a page can take over the 1 s default. A longer wait changes no assertion, only patience.
configure({ asyncUtilTimeout: 5000 });

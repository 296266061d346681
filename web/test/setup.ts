import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder, format } from 'node:util';

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

// A passing run prints no error output. An unexpected console.error or console.warn fails the
// test that printed it (still printed, to show where); a test that expects one spies on it
// (jest.spyOn), asserts the call and restores it, which keeps it out of this list.
const unexpectedConsole: string[] = [];
for (const level of ['error', 'warn'] as const) {
  const print = console[level].bind(console);
  console[level] = (...args: unknown[]): void => {
    unexpectedConsole.push(`console.${level}: ${format(...args).split('\n')[0] ?? ''}`);
    print(...args);
  };
}

function failOnUnexpectedConsole(): void {
  const lines = unexpectedConsole.splice(0);
  if (lines.length > 0) {
    throw new Error(`Unexpected console output (spy on it and assert it if the test expects it):\n${lines.join('\n')}`);
  }
}

afterEach(failOnUnexpectedConsole);
// Output after a file's last test (a late rejection, say) fails the file.
afterAll(failOnUnexpectedConsole);

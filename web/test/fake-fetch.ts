// jsdom has no fetch. Component tests install this stand-in, which answers by URL path.

export interface FakeReply {
  status: number;
  /** Serialised as JSON unless it is already a string (raw text, e.g. an HTML error page). */
  body?: unknown;
}

export type FakeHandler = (path: string, init?: RequestInit) => FakeReply | Promise<FakeReply>;

export function fakeResponse({ status, body }: FakeReply): Response {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const response: Partial<Response> = {
    ok: status >= 200 && status < 300,
    status,
    text: () => Promise.resolve(text),
  };
  return response as Response;
}

export function installFetch(handler: FakeHandler): jest.Mock<Promise<Response>, [RequestInfo | URL, RequestInit?]> {
  const fetchMock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return fakeResponse(await handler(url, init));
  });
  globalThis.fetch = fetchMock;
  return fetchMock;
}

/** A fetch that fails the way a browser's does when nothing answers. */
export function installUnreachableFetch(): jest.Mock<Promise<Response>, [RequestInfo | URL, RequestInit?]> {
  const fetchMock = jest.fn(async (_input: RequestInfo | URL, _init?: RequestInit): Promise<Response> => {
    throw new TypeError('Failed to fetch');
  });
  globalThis.fetch = fetchMock;
  return fetchMock;
}

export function removeFetch(): void {
  Reflect.deleteProperty(globalThis, 'fetch');
}

import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Guards requests to addresses that users choose (web push endpoints, alert webhooks) so they
 * cannot turn the workers against hosts beside them (SSRF). Only public unicast addresses pass:
 * loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved and the
 * unspecified address are refused. A literal address in the URL is checked when the URL is
 * accepted (`isPublicAddressHost`); a host name is checked on every connection by the agent's
 * `lookup` (`publicOnlyLookup`), so a name that later resolves to a private address is refused
 * too (no DNS-rebinding gap between check and connect).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
  return ipaddr.process(address).range() === 'unicast';
}

/** For a URL's hostname: false for localhost and non-public address literals; true for other names (checked at connect time). */
export function isPublicAddressHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  return ipaddr.isValid(host) ? isPublicAddress(host) : true;
}

/**
 * What is wrong with a user-chosen outbound URL in production (push endpoint, webhook), or null:
 * it must be https and must not name localhost or a non-public address literal. Names that
 * resolve to private addresses are caught at connect time (`publicOnlyLookup`).
 */
export function productionOutboundUrlProblem(url: string): string | null {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return 'must be an https URL';
  if (!isPublicAddressHost(parsed.hostname)) return 'must not point at a loopback or private address';
  return null;
}

export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address: refused`);
    this.name = 'PrivateAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

type Resolver = (hostname: string, options: LookupOptions & { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A drop-in `lookup` for http(s).Agent / request options that refuses non-public addresses.
 * Every address a name resolves to must be public (an attacker's DNS could answer with one
 * public and one private address). `resolve` is the system resolver unless a test hands in one.
 */
export function createPublicOnlyLookup(resolve: Resolver = dnsLookup as unknown as Resolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((a) => !isPublicAddress(a.address));
      if (refused) return callback(new PrivateAddressError(hostname, refused.address), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} did not resolve`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

export const publicOnlyLookup = createPublicOnlyLookup();

export interface GuardedPostOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** false: the URL's host must be a public address (literal checked now, names at connect). */
  allowPrivate: boolean;
}

export class OutboundTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`timeout after ${timeoutMs} ms`);
    this.name = 'OutboundTimeoutError';
  }
}

/**
 * POSTs a body to a user-chosen URL and answers the HTTP status (the answer's body is drained,
 * not read). Redirects are not followed. The whole exchange must end within `timeoutMs`; a
 * non-public target is refused with PrivateAddressError unless `allowPrivate`.
 */
export async function guardedPost(url: string, options: GuardedPostOptions): Promise<number> {
  const target = new URL(url);
  if (!options.allowPrivate && !isPublicAddressHost(target.hostname)) throw new PrivateAddressError(target.hostname, target.hostname);
  const transport = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise<number>((resolve, reject) => {
    const request = transport.request(target, {
      method: 'POST',
      headers: { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) },
      lookup: options.allowPrivate ? undefined : publicOnlyLookup,
      // No keep-alive: webhooks go to many hosts, rarely twice in a row.
      agent: false,
    });
    const timer = setTimeout(() => request.destroy(new OutboundTimeoutError(options.timeoutMs)), options.timeoutMs);
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => {
        clearTimeout(timer);
        resolve(response.statusCode ?? 0);
      });
      response.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(options.body);
  });
}

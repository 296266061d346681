import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A browser's side of a push subscription: its P-256 key pair and auth secret (RFC 8291). */
export interface BrowserKeys {
  publicKey: Buffer;
  privateKey: Buffer;
  authSecret: Buffer;
  /** As the browser's PushSubscription.toJSON() gives them. */
  p256dh: string;
  auth: string;
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  const publicKey = ecdh.getPublicKey();
  return { publicKey, privateKey: ecdh.getPrivateKey(), authSecret, p256dh: publicKey.toString('base64url'), auth: authSecret.toString('base64url') };
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/**
 * Decrypts an aes128gcm Web Push message (RFC 8188 framing, RFC 8291 keys) with the browser's
 * keys, as a browser does. Throws when the message is not for these keys.
 */
export function decryptPushMessage(body: Buffer, keys: BrowserKeys): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(keys.privateKey);
  const sharedSecret = ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.publicKey, serverPublicKey]);
  const ikm = hkdf(keys.authSecret, sharedSecret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('bad padding delimiter');
  return padded.subarray(0, end);
}

export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export type PushReply = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A local push service: records every request; `reply` decides each answer (default 201).
 * Subscriptions point at `${url}/push/<name>`.
 */
export class LocalPushService {
  readonly received: ReceivedPush[] = [];
  reply: (push: ReceivedPush, index: number) => PushReply = () => ({ status: 201 });
  onPush?: (push: ReceivedPush) => void;
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const push = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: performance.now() };
      const index = this.received.push(push) - 1;
      this.onPush?.(push);
      const answer = this.reply(push, index);
      if (answer === 'hang') return;
      res.writeHead(answer.status, answer.headers ?? {}).end();
    });
  });
  url = '';

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await new Promise((resolve) => this.server.once('listening', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  endpoint(name: string): string {
    return `${this.url}/push/${name}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

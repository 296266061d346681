import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGoogleProfile {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
  picture?: string;
}

/**
 * A small OAuth 2.0 provider on 127.0.0.1 with Google's three endpoints (authorize, token,
 * userinfo): passport-google-oauth20 runs its real dance against it. The next authorization
 * signs in `nextProfile`, or answers `error=access_denied` when it is null.
 */
export class FakeGoogle {
  nextProfile: FakeGoogleProfile | null = null;
  readonly clientId = 'fake-client-id.apps.example';
  readonly clientSecret = 'fake-client-secret';
  private readonly codes = new Map<string, { profile: FakeGoogleProfile; redirectUri: string }>();
  private readonly tokens = new Map<string, FakeGoogleProfile>();
  private server?: http.Server;
  private base = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  env(): Record<string, string> {
    return {
      GOOGLE_CLIENT_ID: this.clientId,
      GOOGLE_CLIENT_SECRET: this.clientSecret,
      GOOGLE_AUTHORIZATION_URL: `${this.base}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${this.base}/token`,
      GOOGLE_USERINFO_URL: `${this.base}/userinfo`,
    };
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      const state = url.searchParams.get('state') ?? '';
      if (url.searchParams.get('client_id') !== this.clientId || url.searchParams.get('response_type') !== 'code') {
        json(400, { error: 'invalid_request' });
        return;
      }
      const back = new URL(redirectUri);
      back.searchParams.set('state', state);
      if (!this.nextProfile) {
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = randomBytes(12).toString('hex');
        this.codes.set(code, { profile: this.nextProfile, redirectUri });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const grant = this.codes.get(form.get('code') ?? '');
      const clientOk = form.get('client_id') === this.clientId && form.get('client_secret') === this.clientSecret;
      if (!grant || !clientOk || form.get('redirect_uri') !== grant.redirectUri || form.get('grant_type') !== 'authorization_code') {
        json(400, { error: 'invalid_grant' });
        return;
      }
      this.codes.delete(form.get('code') ?? '');
      const accessToken = randomBytes(16).toString('hex');
      this.tokens.set(accessToken, grant.profile);
      json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3599, scope: 'openid email profile' });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/userinfo') {
      const token = req.headers.authorization?.replace(/^Bearer /, '') ?? url.searchParams.get('access_token') ?? '';
      const profile = this.tokens.get(token);
      if (!profile) {
        json(401, { error: 'invalid_token' });
        return;
      }
      json(200, profile);
      return;
    }
    json(404, { error: 'not_found' });
  }
}

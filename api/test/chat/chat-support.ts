import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { createUser } from '@tickerbell/jobs/accounts';
import { hashPassword } from '../../src/accounts/password-hash';
import { GOOD_PASSWORD, cookieHeaderOf, csrfOf, type Agent } from '../support/accounts-harness';

export interface ChatUser {
  id: number;
  name: string;
  agent: Agent;
  csrf: string;
  /** The session cookie, for raw http streams. */
  cookie: string;
}

let hash: Promise<string> | undefined;

/** A verified user with a name, made in the database and signed in on `server` through the real credentials route. */
export async function chatUser(dataSource: DataSource, server: http.Server, email: string, name: string): Promise<ChatUser> {
  hash ??= hashPassword(GOOD_PASSWORD);
  const user = await createUser(dataSource, { email, name, passwordHash: await hash, isVerified: true }, null);
  // Old enough to post links (the moderation rule for new accounts is C2's test).
  await dataSource.query(`UPDATE users SET created_at = now() - interval '30 days' WHERE id = $1`, [user.id]);
  const agent = request.agent(server);
  const csrfToken = await csrfOf(agent);
  const res = await agent
    .post('/api/auth/callback/credentials')
    .set('X-Forwarded-For', `198.51.100.${user.id % 250}`)
    .send({ email, password: GOOD_PASSWORD, csrfToken, json: true });
  if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}: ${res.text}`);
  return { id: user.id, name, agent, csrf: await csrfOf(agent), cookie: cookieHeaderOf(res) };
}

/** The same user signed in once more (another tab or device): a session of its own. */
export async function secondSession(server: http.Server, user: ChatUser, email: string): Promise<ChatUser> {
  const agent = request.agent(server);
  const csrfToken = await csrfOf(agent);
  const res = await agent.post('/api/auth/callback/credentials').send({ email, password: GOOD_PASSWORD, csrfToken, json: true });
  if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}`);
  return { ...user, agent, csrf: await csrfOf(agent), cookie: cookieHeaderOf(res) };
}

export async function listen(app: http.RequestListener): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

export const send = (who: ChatUser, method: 'post' | 'patch' | 'delete', path: string, body?: object) =>
  who.agent[method](path).set('x-csrf-token', who.csrf).send(body ?? {});

/** Polls `read` until `done` holds (no sleeps of fixed length in the assertions: a condition, with a deadline). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

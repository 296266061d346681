import { defineRouteTable } from '../http/route-table';
import { idParam, listQuery, streamQuery, subscriptionBody, unsubscribeBody } from './notifications.routes';

// A browser PushSubscription's keys: 65 and 16 bytes, base64url.
const keys = { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 7).toString('base64url') };

export const notificationsRouteTable = defineRouteTable('notifications', [
  {
    method: 'GET',
    path: '/api/notifications',
    summary: "The user's notifications, newest first (50 a page, cursor = the last id seen)",
    auth: 'user',
    query: listQuery,
    body: 'none',
    response: 'json',
  },
  { method: 'POST', path: '/api/notifications/read-all', summary: 'Marks every notification read', auth: 'user', body: 'none', response: 'json' },
  {
    method: 'POST',
    path: '/api/notifications/:id/read',
    summary: 'Marks one notification read',
    auth: 'user',
    params: idParam,
    ids: { id: 'notification' },
    body: 'none',
    response: 'json',
  },
  { method: 'DELETE', path: '/api/notifications', summary: 'Clears every notification', auth: 'user', body: 'none', response: 'json' },
  {
    method: 'GET',
    path: '/api/stream',
    summary: 'Server-sent events: notifications (resumed after Last-Event-ID), prices of watched symbols, heartbeats',
    auth: 'user',
    query: streamQuery,
    body: 'none',
    response: 'event-stream',
  },
  { method: 'GET', path: '/api/push/public-key', summary: "The web push VAPID public key", auth: 'public', body: 'none', response: 'json' },
  {
    method: 'POST',
    path: '/api/push/subscriptions',
    summary: "Saves the browser's push subscription (the endpoint identifies the browser: the latest user signed in on it gets its pushes)",
    auth: 'user',
    body: { json: subscriptionBody },
    response: 'json',
    example: { body: { endpoint: 'https://push.example.com/send/abc123', expirationTime: null, keys } },
  },
  {
    method: 'DELETE',
    path: '/api/push/subscriptions',
    summary: "Deletes one of the user's push subscriptions",
    auth: 'user',
    body: { json: unsubscribeBody },
    ids: { endpoint: 'push-subscription' },
    response: 'empty',
    example: { body: { endpoint: 'https://push.example.com/send/abc123' } },
  },
]);

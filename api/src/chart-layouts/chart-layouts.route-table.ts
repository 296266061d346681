import { z } from 'zod';
import { defineRouteTable, pathIdSchema } from '../http/route-table';
import { createBody, updateBody } from './chart-layouts.routes';

const layoutParams = z.object({ id: pathIdSchema });
const layout = { symbol: 'BTCUSDT', interval: '1h', indicators: [{ type: 'sma', period: 20, color: '#2962ff' }] };

export const chartLayoutsRouteTable = defineRouteTable('chart-layouts', [
  { method: 'GET', path: '/api/chart-layouts', summary: "The user's saved chart layouts", auth: 'user', body: 'none', response: 'json' },
  { method: 'GET', path: '/api/chart-layouts/default', summary: "The user's default layout: `{ layout }`, null when none is chosen", auth: 'user', body: 'none', response: 'json' },
  {
    method: 'POST',
    path: '/api/chart-layouts',
    summary: 'Saves a chart layout',
    auth: 'user',
    body: { json: createBody },
    response: 'json',
    example: { body: { name: 'BTC hourly', layout, isDefault: false } },
  },
  { method: 'GET', path: '/api/chart-layouts/:id', summary: 'One layout', auth: 'user', params: layoutParams, ids: { id: 'chart-layout' }, body: 'none', response: 'json' },
  {
    method: 'PATCH',
    path: '/api/chart-layouts/:id',
    summary: 'Changes a layout',
    auth: 'user',
    params: layoutParams,
    ids: { id: 'chart-layout' },
    body: { json: updateBody },
    response: 'json',
    example: { body: { name: 'BTC 4h' } },
  },
  {
    method: 'PUT',
    path: '/api/chart-layouts/:id/default',
    summary: "Makes a layout the user's default",
    auth: 'user',
    params: layoutParams,
    ids: { id: 'chart-layout' },
    body: 'none',
    response: 'json',
  },
  { method: 'DELETE', path: '/api/chart-layouts/:id', summary: 'Deletes a layout', auth: 'user', params: layoutParams, ids: { id: 'chart-layout' }, body: 'none', response: 'empty' },
]);

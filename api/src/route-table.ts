import { accountsRouteTable } from './accounts/accounts.route-table';
import { adminRouteTable } from './admin/admin.route-table';
import { alertsRouteTable } from './alerts/alerts.route-table';
import { billingRouteTable } from './billing/billing.route-table';
import { chartLayoutsRouteTable } from './chart-layouts/chart-layouts.route-table';
import { contactRouteTable } from './contact/contact.route-table';
import { cotRouteTable } from './cot/cot.route-table';
import { healthRouteTable } from './health/health.route-table';
import { insidersRouteTable } from './insiders/insiders.route-table';
import { lockupsRouteTable } from './lockups/lockups.route-table';
import { chatRouteTable } from './chat/chat.route-table';
import { routeKey, type RouteSpec } from './http/route-table';
import { openapiRouteTable } from './http/openapi.routes';
import { marketHoursRouteTable } from './market-hours/market-hours.route-table';
import { newsRouteTable } from './news/news.route-table';
import { notificationsRouteTable } from './notifications/notifications.route-table';
import { predictionsRouteTable } from './predictions/predictions.route-table';
import { pricesRouteTable } from './prices/prices.route-table';
import { statusRouteTable } from './status/status.route-table';
import { watchlistsRouteTable } from './watchlists/watchlists.route-table';
import { whalesRouteTable } from './whales/whales.route-table';
import { yieldsRouteTable } from './yields/yields.route-table';

/**
 * Every route of the api, one table per domain (`<domain>.route-table.ts` beside its routes). A
 * new domain adds its table here and its routes in app.ts: the tests fail until both agree
 * (api/test/http/route-table.test.ts), then fuzz it and try it as another user, and
 * GET /api/openapi.json describes it.
 */
export const API_ROUTES: readonly RouteSpec[] = [
  ...healthRouteTable,
  ...statusRouteTable,
  ...openapiRouteTable,
  ...accountsRouteTable,
  ...marketHoursRouteTable,
  ...notificationsRouteTable,
  ...cotRouteTable,
  ...pricesRouteTable,
  ...newsRouteTable,
  ...insidersRouteTable,
  ...whalesRouteTable,
  ...yieldsRouteTable,
  ...predictionsRouteTable,
  ...lockupsRouteTable,
  ...chatRouteTable,
  ...contactRouteTable,
  ...alertsRouteTable,
  ...watchlistsRouteTable,
  ...chartLayoutsRouteTable,
  ...billingRouteTable,
  ...adminRouteTable,
];

const keys = API_ROUTES.map(routeKey);
const twice = keys.filter((key, i) => keys.indexOf(key) !== i);
if (twice.length) throw new Error(`route table: listed twice: ${twice.join(', ')}`);

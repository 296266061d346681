import { defineRouteTable } from '../http/route-table';
import { contactSchema } from './contact.routes';

export const contactRouteTable = defineRouteTable('contact', [
  {
    method: 'POST',
    path: '/api/contact',
    summary: 'A message from the public contact form (rate limited per client)',
    auth: 'public',
    csrf: 'exempt',
    body: { json: contactSchema },
    response: 'json',
    example: { body: { name: 'Ada', email: 'ada@example.com', message: 'Hello, a question about alerts.' } },
  },
]);

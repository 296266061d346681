import { z } from 'zod';
import { SEC_MAX_REQUESTS_PER_SECOND } from './sec-edgar.client';

// The SEC variables shared by every EDGAR reader (news, insiders, lockups): one User-Agent and one
// request budget for the whole cluster, validated by the same rules in each domain's schema.

/** The SEC asks every client to name itself: "Company Name admin@example.com". Required when a live SEC source is on. */
export const secUserAgentSchema = z
  .string()
  .trim()
  .regex(/\S+@\S+\.\S+/, 'must name a contact email, e.g. "Acme Research ops@acme.example"')
  .optional();

/** Requests per second to sec.gov for the whole cluster (the SEC allows 10): one budget shared by news, insiders and lockups. */
export const secRequestsPerSecondSchema = z.coerce.number().int().min(1).max(SEC_MAX_REQUESTS_PER_SECOND).default(SEC_MAX_REQUESTS_PER_SECOND);

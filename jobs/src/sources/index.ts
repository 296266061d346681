export { productionOutboundUrlProblem } from './outbound-guard';
export { EdgarFetchError, EdgarHttpClient, SEC_MAX_REQUESTS_PER_SECOND, type EdgarHttpOptions } from './sec-edgar.client';
export { listSourceHealth } from './source-health';

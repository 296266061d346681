export { productionOutboundUrlProblem } from './outbound-guard';

// The COT screens' one lazy entry: both pages (dashboard and public) load as a single chunk.
export { CotInstrumentPage } from './cot-instrument-page';
export { CotScreenerPage } from './cot-screener-page';

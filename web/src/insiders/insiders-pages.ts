// The insiders dashboard screens' one lazy entry (screener, company and insider pages load as one chunk).
export { InsidersCompanyPage } from './insiders-company-page';
export { InsidersInsiderPage } from './insiders-insider-page';
export { InsidersScreenerPage } from './insiders-screener-page';

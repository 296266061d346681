// @tickerbell/jobs/lockups: what the api, the workers, the CLI, bench and e2e use of the lockups domain.
// Reads of the API (H3): calendar, event, public research list, source status.
export {
  lockupCalendar,
  lockupEventDetail,
  lockupResearch,
  lockupsSourceStatus,
  lockupsToday,
  addDays,
  LOCKUPS_ZONE,
  LOCKUP_REVIEW_LIMIT,
  LOCKUP_RESEARCH_LIMIT,
} from './lockups-read.store';
// Follows (owned by a user; another user's id answers null / false).
export {
  listLockupFollows,
  createLockupFollow,
  updateLockupFollow,
  deleteLockupFollow,
  LockupsError,
  type LockupsErrorCode,
} from './lockups-follows.store';
// Writes (discovery, CSV, tests and e2e fixtures).
export { upsertLockupOffering, LOCKUPS_DISCOVERY_SOURCE, type LockupOfferingInput, type LockupTrancheInput } from './lockups.store';
export { importLockupsCsv, parseLockupsCsv, LockupCsvError, LOCKUP_CSV_COLUMNS, type LockupCsvIssue, type LockupCsvResult } from './lockups-import';
// The score.
export {
  scoreLockup,
  topLockupFactors,
  DEFAULT_LOCKUP_RISK_WEIGHTS,
  TOP_TIER_UNDERWRITERS,
  HIGH_RISK_SECTOR_WORDS,
  type LockupRiskInput,
  type LockupRiskResult,
  type LockupRiskWeights,
} from './lockups-risk';
export { priceTriggerMetOn, checkEarlyReleaseTriggers } from './lockups-triggers';
// Jobs.
export { discoverLockups, refreshLockups, checkLockupTriggers, type DiscoveryOutcome } from './lockups-discovery';
export { notifyLockupFollowers, lockupNoticeContent, LOCKUP_ACTIVITY_TYPE } from './lockups-alerts';
export { lockupsEnvSchema, loadLockupsConfig, lockupsSourceFromConfig, type LockupsConfig } from './lockups.config';
export { lockupsJobIds } from './lockups.jobs';
export { createLockupsHandlers, type LockupsHandlerDeps } from './lockups.processor';
export { lockupsDomain } from './lockups.domain';
// Sources (H1).
export { LockupsLiveSource, type LockupsSource, type LockupSourceTag } from './lockups-sec.client';
export { LockupsReplaySource, SIMULATED_OFFERINGS, replayAccessions } from './lockups-replay';
export { parseProspectus, extractLockupSection, type ParsedProspectus } from './prospectus.parse';

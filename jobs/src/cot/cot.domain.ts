import { defineDomain } from '../runtime/domain';
import { cftcSourceFromConfig, cotEnvSchema } from './cot.config';
import { createCotHandlers } from './cot.processor';
import { COT_SCHEDULES } from './cot.schedules';

/** COT in the workers: the CFTC source (live or replay) is built from the configuration at start. */
export const cotDomain = defineDomain({
  name: 'cot',
  env: cotEnvSchema,
  schedules: COT_SCHEDULES,
  start(config) {
    const source = cftcSourceFromConfig(config);
    return { handlers: createCotHandlers({ source: () => source, config: () => config }) };
  },
});

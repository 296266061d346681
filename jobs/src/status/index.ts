export { pingDatabase, readSystemStatus } from './status.store';

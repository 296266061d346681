export { createApp, type AppDeps } from './app';
export { loadApiConfig, apiEnvSchema, type ApiConfig } from './config';
export { HttpError } from './http/errors';

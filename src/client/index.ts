// The API client of a space: the sync engine's only way to the service.
export { createClient, type ClientOptions, type ClientStats, type SpaceClient } from './createClient.js';
export type { CallOptions } from './apiCall.js';
export { Scheduler, PRIORITIES, systemClock, type Priority, type SchedulerOptions, type SchedulerEvent, type JobResult, type UserWait } from './scheduler.js';
export type { SchedulerStats, BudgetView, WaitReason, Clock } from './scheduler.js';
export { DEFAULT_LIMITS, resolveLimits, type LimitsInput, type SchedulerLimits, type BudgetLimit } from './limits.js';
export { httpTransport, TransportError, type Transport, type TransportRequest, type TransportResponse } from './transport.js';
export { UsageWindow } from './usageWindow.js';
export { UNKNOWN_DOCUMENT_BLOCKS } from './api/blocksApi.js';
export * from '../wire/types.js';

// The wire contract both sides of docs/api.md share: the request and response types of every
// endpoint and the rate budgets. The client and the server build on it; it imports only the dialect.
export * from './types.js';

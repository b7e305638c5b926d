// The Property Records Service contract: one import for the local service and the client.
export * from './common.ts';
export * from './v4.ts';
export * from './v3.ts';
export * from './v2.ts';
export * from './operations.ts';

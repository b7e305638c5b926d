// The operation registry the local service serves (cli.ts imports it): every v4, v3 and v2
// operation, each answering from the sample store.
import type { LocalOperation } from '../operation.ts';
import { v2Operations } from './v2.ts';
import { v3Operations } from './v3.ts';
import { v4Operations } from './v4.ts';

export const localOperations: readonly LocalOperation[] = [...v4Operations, ...v3Operations, ...v2Operations];

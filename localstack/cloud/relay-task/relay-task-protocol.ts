/**
 * The IPC messages between the local cloud and its relay task process (./relay-task-process.ts, the
 * parent; ./relay-task-runtime.ts, the child's local-cloud side, outside the product's entry). They carry
 * what a container gets from its platform rather than from its environment: the task role as IAM's
 * caller, the local clock's offset, and the health the parent reports.
 */
import type { Principal } from '../../iam/caller';
import type { IamSettings } from '../iam/iam-setup';

/** Parent -> child. */
export type ToRelayTask =
  /** First message: install IAM and the clock, then run `entry` (the product's source entry, absolute). */
  | { type: 'start'; entry: string; principal: Principal; iam: IamSettings; clockOffsetMs: number }
  /** The local clock moved (PUT/DELETE /_local/clock). */
  | { type: 'clock'; offsetMs: number }
  /** Open connections by listening port, please. */
  | { type: 'health'; id: number };

/** Child -> parent. */
export type FromRelayTask =
  /** A line for the local cloud's log (IAM's explain log). */
  { type: 'log'; message: string } | { type: 'health'; id: number; connections: Record<string, number> };

/** The control API's error shape: 400 or 404 `{"error": "…"}` (keys are never echoed). */
import { json, type Reply } from '../types';

export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const controlErrorReply = (err: ControlError): Reply => json(err.status, { error: err.message });

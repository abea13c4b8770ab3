/** GET /server: the server of the token, with the token as its ApiTokens. */
import { json, type EmulatedRequest, type Reply } from '../../types';
import type { PostmarkSeed } from '../seed';

export const getServer = (request: EmulatedRequest, data: PostmarkSeed): Reply => json(200, { ...data.server, ApiTokens: [request.key] });

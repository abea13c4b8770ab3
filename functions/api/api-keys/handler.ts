import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createApiKeysApp } from './app';

export const handler = handle(createApiKeysApp(buildServices()));

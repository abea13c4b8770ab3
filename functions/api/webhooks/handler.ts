import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createWebhooksApp } from './app';

export const handler = handle(createWebhooksApp(buildServices()));

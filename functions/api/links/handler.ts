import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createLinksApp } from './app';

export const handler = handle(createLinksApp(buildServices()));

import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createDashboardApp } from './app';

export const handler = handle(createDashboardApp(buildServices()));

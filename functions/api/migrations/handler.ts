import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createMigrationsApp } from './app';

export const handler = handle(createMigrationsApp(buildServices()));

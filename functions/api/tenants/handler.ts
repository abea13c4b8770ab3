import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createTenantsApp } from './app';

export const handler = handle(createTenantsApp(buildServices()));

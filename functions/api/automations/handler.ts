import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createAutomationsApp } from './app';

export const handler = handle(createAutomationsApp(buildServices()));

import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createTemplatesApp } from './app';

export const handler = handle(createTemplatesApp(buildServices()));

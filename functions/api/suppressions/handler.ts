import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createSuppressionsApp } from './app';

export const handler = handle(createSuppressionsApp(buildServices()));

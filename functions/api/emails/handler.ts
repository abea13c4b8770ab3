import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createEmailsApp } from './app';

export const handler = handle(createEmailsApp(buildServices()));

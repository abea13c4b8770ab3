import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createReceivedEmailsApp } from './app';

export const handler = handle(createReceivedEmailsApp(buildServices()));

import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createAttachmentsApp } from './app';

export const handler = handle(createAttachmentsApp(buildServices()));

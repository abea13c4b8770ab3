import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createSmtpCredentialsApp } from './app';

export const handler = handle(createSmtpCredentialsApp(buildServices()));

import { handle } from 'hono/aws-lambda';
import { buildServices } from '../../../shared/services';
import { createDomainsApp } from './app';

export const handler = handle(createDomainsApp(buildServices()));

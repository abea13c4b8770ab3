import { handle } from 'hono/aws-lambda';
import { createReferenceApp } from './app';

export const handler = handle(createReferenceApp());

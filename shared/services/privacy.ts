/** Erasures and exports (docs/erasure.md, docs/exports.md). */
import { ErasureRepository } from '../adapters/store/erasures';
import { ExportRepository } from '../adapters/store/exports';
import type { Platform } from './platform';

export function buildPrivacy({ table }: Pick<Platform, 'table'>) {
  return { erasures: new ErasureRepository(table), exports: new ExportRepository(table) };
}

export type PrivacyServices = ReturnType<typeof buildPrivacy>;

/** Imports (docs/imports.md): their records and settings. The provider APIs they read are ./import-providers.ts. */
import { ImportRepository } from '../adapters/store/imports';
import type { Platform } from './platform';

export function buildImports({ config, table }: Pick<Platform, 'config' | 'table'>) {
  return {
    imports: new ImportRepository(table),
    importSettings: {
      budgetMs: config.imports.budgetMs,
      maxStretchesPerRequest: config.imports.maxStretchesPerRequest,
      leaseMs: config.imports.budgetMs + 35_000,
      apiBaseUrl: config.linksBaseUrl || 'http://localhost:3000',
    },
  };
}

export type ImportServices = ReturnType<typeof buildImports>;

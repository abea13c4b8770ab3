/**
 * The table's key layout, every entity declared once, by area (./entity-layout.ts says the shape). What
 * docs/reference/data.md's table is generated from (./write-data-doc.ts) and what
 * test/unit/store/key-layout.test.ts holds the key builders (../keys.ts) to.
 */
import { ACCOUNTS } from './accounts';
import { AUTOMATIONS } from './automations';
import { DOMAINS } from './domains';
import type { LayoutArea } from './entity-layout';
import { LISTS } from './lists';
import { SENDING } from './sending';
import { TENANTS } from './tenants';

export const DATA_LAYOUT: readonly LayoutArea[] = [ACCOUNTS, SENDING, DOMAINS, TENANTS, LISTS, AUTOMATIONS];

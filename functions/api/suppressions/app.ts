/**
 * The suppressions group: POST /suppressions (add one or many), GET /suppressions (list, filters),
 * DELETE /suppressions?email=&tenant= (remove). With `category` each acts on category opt-outs instead
 * of suppressions. Shapes: docs/suppressions.md. And address validation, which reads the same lists:
 * POST /validations and POST /validations/batch (docs/deliverability.md, "Address validation").
 */
import type { Hono } from 'hono';
import { toPublicCategoryOptOut, toPublicSuppression, type CategoryOptOut, type Suppression } from '#shared/domain/suppressions/model';
import type { Tenant } from '#shared/domain/tenants/tenant';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { suppressionOps } from './suppression-operations';
import { validationOps } from './validation-operations';
import { toPublicValidation } from '#shared/domain/address-validation/schemas';
import type {
  AccessServices,
  MailDomainServices,
  Platform,
  SuppressionServices,
  TenantServices,
  ValidationServices,
} from '#shared/services';
import { validateAddresses } from '#shared/usecases/address-validation/validate-addresses';
import {
  addCategoryOptOuts,
  addSuppressions,
  listCategoryOptOutPage,
  listSuppressions,
  removeSuppression,
  resubscribe,
} from '#shared/usecases/suppressions/suppressions';

/** Records of one list, shown with that list's tenant external_id. */
const publicOn = (tenant: Tenant | null) => (suppression: Suppression) => toPublicSuppression(suppression, tenant?.external_id ?? null);
const publicOptOutOn = (tenant: Tenant | null) => (optOut: CategoryOptOut) => toPublicCategoryOptOut(optOut, tenant?.external_id ?? null);

/** What the group uses (its handler composes exactly this: shared/services/). */
export type SuppressionsServices = Platform &
  AccessServices &
  ValidationServices &
  TenantServices &
  SuppressionServices &
  MailDomainServices;

export function createSuppressionsApp(services: SuppressionsServices): Hono<ApiEnv> {
  const app = createApi(services);
  const route = routes(app);

  route(validationOps.validateAddress, async (c, { body }) => {
    const [validation] = await validateAddresses(services, c.get('principal'), { emails: [body.email], tenant: body.tenant });
    return c.json(toPublicValidation(validation!));
  });

  route(validationOps.validateAddresses, async (c, { body }) => {
    const validations = await validateAddresses(services, c.get('principal'), body);
    return c.json({ validations: validations.map(toPublicValidation) });
  });

  // 201 when the call added at least one address, 200 when every address was already on the list.
  route(suppressionOps.addSuppressions, async (c, { body: input }) => {
    if (input.category !== undefined) {
      const { tenant, result } = await addCategoryOptOuts(services, c.get('principal'), input);
      return c.json(
        { category_opt_outs: result.optOuts.map(publicOptOutOn(tenant)), created: result.created, existing: result.existing },
        result.created.length > 0 ? 201 : 200,
      );
    }
    const { tenant, result } = await addSuppressions(services, c.get('principal'), input);
    return c.json(
      { suppressions: result.suppressions.map(publicOn(tenant)), created: result.created, existing: result.existing },
      result.created.length > 0 ? 201 : 200,
    );
  });

  route(suppressionOps.listSuppressions, async (c, { query }) => {
    if (query.category !== undefined) {
      const { tenant, result: page } = await listCategoryOptOutPage(services, c.get('principal'), { ...query, category: query.category });
      return c.json(listPage('category_opt_outs', page, publicOptOutOn(tenant)));
    }
    const { tenant, result: page } = await listSuppressions(services, c.get('principal'), query);
    // A lookup by address (?email=) also carries the address's category opt-outs (docs/suppressions.md).
    const optOuts = page.categoryOptOuts ? { category_opt_outs: page.categoryOptOuts.map(publicOptOutOn(tenant)) } : {};
    return c.json({ ...listPage('suppressions', page, publicOn(tenant)), ...optOuts });
  });

  route(suppressionOps.removeSuppression, async (c, { query: input }) => {
    if (input.category !== undefined) {
      const { tenant, result: removed } = await resubscribe(services, c.get('principal'), { ...input, category: input.category });
      return c.json({ ok: true, category_opt_out: publicOptOutOn(tenant)(removed) });
    }
    const { tenant, result: removed } = await removeSuppression(services, c.get('principal'), input);
    return c.json({ ok: true, suppression: publicOn(tenant)(removed) });
  });

  return app;
}

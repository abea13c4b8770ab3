/**
 * Postmark's `TemplateModel` is any JSON (Mustachio: `{{user.name}}`, `{{#items}}...{{/items}}`); our
 * template variables are flat values (strings, numbers, booleans, null). A nested model is flattened the
 * way the Postmark import flattened the template's placeholders (shared/domain/imports/convert-template.ts:
 * `{{user.first_name}}` became `{{user_first_name}}`): each leaf is named by its path joined with `_`,
 * array items by their index (`items.0.name` -> `items_0_name`). So a template imported from Postmark
 * finds its values under the names it now uses. A top-level key written flat wins over a nested path
 * that flattens to the same name. Empty objects and arrays give nothing. Loops and conditionals over a
 * list are not rendered by our templates (the import kept them as written, as a draft).
 */
export type FlatValue = string | number | boolean | null;

function isLeaf(value: unknown): value is FlatValue {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function collect(value: unknown, path: string, into: Map<string, FlatValue>): void {
  if (isLeaf(value)) {
    if (!into.has(path)) into.set(path, value);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      collect(item, `${path}_${index}`, into);
    });
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) collect(inner, `${path}_${key}`, into);
  }
  // undefined (not JSON) gives nothing.
}

/** The flat variables of a TemplateModel (see above). */
export function flattenTemplateModel(model: Readonly<Record<string, unknown>>): Record<string, FlatValue> {
  const flat = new Map<string, FlatValue>();
  // Flat keys first, so they win over a nested path of the same name.
  for (const [key, value] of Object.entries(model)) if (isLeaf(value)) flat.set(key, value);
  for (const [key, value] of Object.entries(model)) if (!isLeaf(value)) collect(value, key, flat);
  return Object.fromEntries(flat);
}

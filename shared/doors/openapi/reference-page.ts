/**
 * The API reference as one server-rendered HTML page (GET /reference): every operation by tag with its
 * method, path, authentication, parameters, request and response schemas, examples and error codes,
 * then every schema. Rendered from the OpenAPI document itself (no script, no third-party assets: its
 * only style is inline, allowed by the Content-Security-Policy's hash of it). Pure: no I/O, no zod.
 */
import { createHash } from 'node:crypto';
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from './document';

const METHODS = ['post', 'get', 'put', 'patch', 'delete'] as const;

const esc = (value: unknown): string =>
  String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The little Markdown the document uses: paragraphs, `- ` lists, `code` and **bold**. */
function markdown(text: string): string {
  const inline = (line: string) =>
    esc(line)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  const out: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (list.length) out.push(`<ul>${list.map((item) => `<li>${item}</li>`).join('')}</ul>`);
    list = [];
  };
  for (const block of text.split(/\n{2,}/)) {
    for (const line of block.split('\n')) {
      if (line.startsWith('- ')) list.push(inline(line.slice(2)));
      else if (list.length && line.startsWith('  ')) list[list.length - 1] += ` ${inline(line.trim())}`;
      else {
        flush();
        if (line.trim()) out.push(`<p>${inline(line)}</p>`);
      }
    }
    flush();
  }
  return out.join('\n');
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const schemaLink = (name: string) => `<a href="#schema-${esc(name)}"><code>${esc(name)}</code></a>`;

class Renderer {
  constructor(private readonly doc: OpenApiDocument) {}

  private resolve<T extends JsonSchema>(value: T): T {
    const ref = value.$ref as string | undefined;
    if (!ref) return value;
    const [, , kind, name] = ref.split('/') as [string, string, string, string];
    const target = (this.doc.components as unknown as Record<string, Record<string, JsonSchema>>)[kind]?.[name];
    return { ...(target as T), ...Object.fromEntries(Object.entries(value).filter(([key]) => key !== '$ref')) };
  }

  /** A one-line type: `string`, `Email[]`, `"a" | "b"`, `object`. */
  type(schema: JsonSchema | undefined): string {
    if (!schema || Object.keys(schema).length === 0) return 'any';
    if (schema.$ref) return schemaLink(refName(schema.$ref as string));
    if (schema.const !== undefined) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
    if (Array.isArray(schema.enum))
      return (schema.enum as unknown[]).map((value) => `<code>${esc(JSON.stringify(value))}</code>`).join(' | ');
    const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (union) return union.map((item) => this.type(item)).join(' | ');
    if (Array.isArray(schema.allOf)) return (schema.allOf as JsonSchema[]).map((item) => this.type(item)).join(' &amp; ');
    if (Array.isArray(schema.type))
      return (schema.type as string[]).map((t) => (t === 'array' ? `${this.type(schema.items as JsonSchema)}[]` : esc(t))).join(' | ');
    if (schema.type === 'array') return `${this.type(schema.items as JsonSchema)}[]`;
    if (schema.type === 'object' && !schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      return `map of ${this.type(schema.additionalProperties as JsonSchema)}`;
    }
    if (schema.not) return 'never (not accepted)';
    return esc(schema.type ?? 'any') + (schema.format ? ` (${esc(schema.format)})` : '');
  }

  /** Constraints worth reading: pattern, bounds, default. */
  private rules(schema: JsonSchema): string {
    const parts: string[] = [];
    const target = schema.type === 'array' ? schema : schema;
    if (target.minLength !== undefined || target.maxLength !== undefined)
      parts.push(`length ${target.minLength ?? 0}-${target.maxLength ?? '…'}`);
    if (target.minimum !== undefined || target.maximum !== undefined) parts.push(`${target.minimum ?? '…'} to ${target.maximum ?? '…'}`);
    if (target.minItems !== undefined || target.maxItems !== undefined)
      parts.push(`${target.minItems ?? 0}-${target.maxItems ?? '…'} items`);
    if (target.pattern) parts.push(`pattern <code>${esc(target.pattern)}</code>`);
    if (target.default !== undefined) parts.push(`default <code>${esc(JSON.stringify(target.default))}</code>`);
    return parts.length ? ` <span class="rules">(${parts.join('; ')})</span>` : '';
  }

  /** Inline object members of a property (its own, an array's items', a union's), shown nested. */
  private nested(schema: JsonSchema, depth: number): string {
    if (depth > 3) return '';
    const candidates = [
      schema,
      schema.items as JsonSchema | undefined,
      ...(((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined) ?? []),
    ].filter((item): item is JsonSchema => !!item && !item.$ref && !!item.properties);
    return candidates.map((item) => this.properties(item, depth + 1)).join('');
  }

  /** A table of an object's properties (a union of objects: one table per alternative). */
  properties(schema: JsonSchema, depth = 0): string {
    const resolved = schema;
    const alternatives = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
    if (!resolved.properties && alternatives) {
      return alternatives
        .map(
          (item, index) =>
            `<p class="alt">${index === 0 ? 'One of:' : 'or'} ${this.type(item)}</p>${item.properties ? this.properties(item, depth) : ''}`,
        )
        .join('');
    }
    const properties = resolved.properties as Record<string, JsonSchema> | undefined;
    if (!properties) return `<p>${this.type(resolved)}${this.rules(resolved)}</p>`;
    const required = new Set((resolved.required as string[] | undefined) ?? []);
    const rows = Object.entries(properties).map(
      ([name, property]) =>
        `<tr><th scope="row"><code>${esc(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</th><td>${this.type(property)}${this.rules(property)}</td><td>${
          property.description ? markdown(String(property.description)) : ''
        }${this.nested(property, depth)}</td></tr>`,
    );
    const extra = resolved.additionalProperties === false ? '' : '<caption>Other fields are ignored.</caption>';
    return `<table class="props">${depth === 0 ? extra : ''}<thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">About</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  }

  private example(value: unknown): string {
    return value === undefined
      ? ''
      : `<details><summary>Example</summary><pre><code>${esc(JSON.stringify(value, null, 2))}</code></pre></details>`;
  }

  private content(content: JsonSchema | undefined): string {
    if (!content) return '';
    return Object.entries(content as Record<string, JsonSchema>)
      .map(([mediaType, media]) => {
        const schema = media.schema as JsonSchema | undefined;
        const body = schema?.$ref
          ? `<p>${schemaLink(refName(schema.$ref as string))}</p>${this.properties(this.resolve(schema))}`
          : schema?.allOf
            ? this.errorSchema(schema)
            : schema
              ? this.properties(schema)
              : '';
        return `<div class="media"><p class="mt"><code>${esc(mediaType)}</code></p>${mediaType === 'application/json' ? body : ''}${this.example(media.example)}</div>`;
      })
      .join('');
  }

  /** An error answer: the envelope and the codes it can carry. */
  private errorSchema(schema: JsonSchema): string {
    const codes = (((schema.allOf as JsonSchema[])[1]?.properties as JsonSchema)?.error as JsonSchema)?.properties as
      | Record<string, JsonSchema>
      | undefined;
    const list = (codes?.code?.enum as string[] | undefined) ?? [];
    return `<p>${schemaLink('Error')} with <code>code</code> ${list.map((code) => `<code>${esc(code)}</code>`).join(', ')}</p>`;
  }

  private auth(operation: OpenApiOperation): string {
    if (operation.security.length === 0) return 'Public: no credentials.';
    if (operation.security.some((requirement) => 'dashboardSession' in requirement)) {
      return operation.security.some((requirement) => 'csrfToken' in requirement)
        ? 'Dashboard session cookie and <code>X-CSRF-Token</code>.'
        : 'Dashboard session cookie.';
    }
    const scopes = operation['x-scopes'];
    return scopes ? `API key with one of the scopes ${scopes.map((scope) => `<code>${esc(scope)}</code>`).join(', ')}.` : 'API key.';
  }

  private parameters(operation: OpenApiOperation): string {
    const parameters = (operation.parameters ?? []).map((parameter) => this.resolve(parameter));
    if (parameters.length === 0) return '';
    const rows = parameters.map(
      (parameter) =>
        `<tr><th scope="row"><code>${esc(parameter.name)}</code>${parameter.required ? ' <span class="req">required</span>' : ''}</th><td>${esc(parameter.in)}</td><td>${this.type(parameter.schema as JsonSchema)}${this.rules(
          parameter.schema as JsonSchema,
        )}</td><td>${parameter.description ? markdown(String(parameter.description)) : ''}</td></tr>`,
    );
    return `<h4>Parameters</h4><table class="props"><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">About</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  }

  private responses(operation: OpenApiOperation): string {
    const entries = Object.entries(operation.responses).map(([status, answer]) => [status, this.resolve(answer)] as const);
    const success = entries.filter(([status]) => Number(status) < 400);
    const errors = entries.filter(([status]) => Number(status) >= 400);
    const headers = (answer: JsonSchema) => {
      const names = Object.keys((answer.headers as JsonSchema | undefined) ?? {});
      return names.length ? `<p>Headers: ${names.map((name) => `<code>${esc(name)}</code>`).join(', ')}</p>` : '';
    };
    const successHtml = success
      .map(
        ([status, answer]) =>
          `<div class="resp"><h5><span class="status s${esc(status[0])}">${esc(status)}</span> ${esc(answer.description)}</h5>${headers(answer)}${this.content(answer.content as JsonSchema)}</div>`,
      )
      .join('');
    const rows = errors.map(
      ([status, answer]) =>
        `<tr><th scope="row">${esc(status)}</th><td>${markdown(String(answer.description))}${headers(answer)}</td></tr>`,
    );
    return `<h4>Responses</h4>${successHtml}${rows.length ? `<table class="errors"><caption>Errors (the error envelope; 401 carries only a message)</caption><thead><tr><th scope="col">Status</th><th scope="col">Codes</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : ''}`;
  }

  operation(path: string, method: string, operation: OpenApiOperation): string {
    const body = operation.requestBody ? this.resolve(operation.requestBody) : undefined;
    return `<article class="op" id="op-${esc(operation.operationId)}" aria-labelledby="h-${esc(operation.operationId)}">
<h3 id="h-${esc(operation.operationId)}"><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${esc(path)}</code> <span class="summary">${esc(operation.summary)}</span></h3>
${operation.description ? markdown(operation.description) : ''}
<p class="auth"><strong>Authentication:</strong> ${this.auth(operation)}</p>
${this.parameters(operation)}
${body ? `<h4>Request body${body.required ? '' : ' (optional)'}</h4>${this.content(body.content as JsonSchema)}` : ''}
${this.responses(operation)}
</article>`;
  }

  page(): string {
    const doc = this.doc;
    const byTag = new Map<string, [string, string, OpenApiOperation][]>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const tag = operation.tags[0] ?? 'Other';
        byTag.set(tag, [...(byTag.get(tag) ?? []), [path, method, operation]]);
      }
    }
    const tags = doc.tags.filter((tag) => byTag.has(tag.name));
    const toc = tags
      .map(
        (tag) =>
          `<li><a href="#tag-${slug(tag.name)}">${esc(tag.name)}</a><ul>${byTag
            .get(tag.name)!
            .map(
              ([path, method, operation]) =>
                `<li><a href="#op-${esc(operation.operationId)}"><span class="m">${method.toUpperCase()}</span> ${esc(path)}</a></li>`,
            )
            .join('')}</ul></li>`,
      )
      .join('');
    const sections = tags
      .map(
        (tag) =>
          `<section id="tag-${slug(tag.name)}" aria-labelledby="t-${slug(tag.name)}"><h2 id="t-${slug(tag.name)}">${esc(tag.name)}</h2>${markdown(tag.description)}${byTag
            .get(tag.name)!
            .map(([path, method, operation]) => this.operation(path, method, operation))
            .join('\n')}</section>`,
      )
      .join('\n');
    const schemas = Object.entries(doc.components.schemas)
      .map(
        ([name, schema]) =>
          `<article class="schema" id="schema-${esc(name)}"><h3>${esc(name)}</h3>${schema.description ? markdown(String(schema.description)) : ''}${this.properties(schema)}</article>`,
      )
      .join('\n');
    const servers = doc.servers
      .map(
        (server) => `<li><code>${esc(server.url)}</code>: ${markdown(String(server.description ?? '')).replace(/^<p>|<\/p>$/g, '')}</li>`,
      )
      .join('');
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} reference</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the reference</a>
<header><h1>${esc(doc.info.title)} <span class="version">${esc(doc.info.version)}</span></h1>
<p>OpenAPI ${esc(doc.openapi)}: <a href="/openapi.json">/openapi.json</a> (also <code>docs/openapi.json</code> in the repository).</p></header>
<nav aria-label="Operations"><h2>Contents</h2><ul><li><a href="#overview">Overview</a></li>${toc}<li><a href="#schemas">Schemas</a></li></ul></nav>
<main id="main">
<section id="overview" aria-labelledby="t-overview"><h2 id="t-overview">Overview</h2>${markdown(doc.info.description)}<h3>Servers</h3><ul>${servers}</ul></section>
${sections}
<section id="schemas" aria-labelledby="t-schemas"><h2 id="t-schemas">Schemas</h2>${schemas}</section>
</main>
</body>
</html>
`;
  }
}

const STYLE = `
:root{color-scheme:light;--fg:#1a1a1a;--muted:#555;--line:#d0d0d0;--bg:#fff;--code:#f3f3f3;--link:#0b57d0}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);display:grid;grid-template-columns:18rem 1fr}
header{grid-column:1/3;padding:1rem 1.5rem;border-bottom:1px solid var(--line)}h1{margin:0;font-size:1.6rem}.version{font-size:1rem;color:var(--muted)}
nav{padding:1rem;border-right:1px solid var(--line);font-size:.875rem;position:sticky;top:0;max-height:100vh;overflow:auto}nav ul{list-style:none;padding-left:.75rem;margin:.25rem 0}nav>ul{padding:0}
nav h2{font-size:1rem;margin:0 0 .5rem}.m{display:inline-block;min-width:3.5rem;font-weight:600;font-size:.75rem}
main{padding:1rem 2rem;min-width:0}section{margin-bottom:3rem}h2{border-bottom:2px solid var(--line);padding-bottom:.25rem}
a{color:var(--link)}a:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem;z-index:1}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875em;background:var(--code);padding:0 .2em;border-radius:3px}
pre{background:var(--code);padding:.75rem;overflow:auto;border-radius:4px}pre code{padding:0}
.op,.schema{border:1px solid var(--line);border-radius:6px;padding:.5rem 1rem 1rem;margin:1.5rem 0}
.op h3{font-size:1.1rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}.summary{font-weight:400;color:var(--muted)}
.method{font-size:.8rem;font-weight:700;padding:.1rem .45rem;border-radius:3px;color:#fff}.get{background:#1f6b3a}.post{background:#0b4f9c}.put{background:#7a4a00}.patch{background:#6a3d9a}.delete{background:#a11d1d}
h4{margin:1rem 0 .25rem}h5{margin:.75rem 0 .25rem;font-size:1rem}.status{font-weight:700}.s2{color:#1f6b3a}.s3{color:#7a4a00}
table{border-collapse:collapse;width:100%;font-size:.875rem;margin:.25rem 0}th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}thead th{background:var(--code)}
td p{margin:.1rem 0}td table{margin-top:.4rem}caption{text-align:left;color:var(--muted);padding:.25rem 0}.req{color:#a11d1d;font-size:.75rem;font-weight:600}.rules{color:var(--muted)}
.alt{margin:.5rem 0 .2rem;font-weight:600}details{margin:.25rem 0}summary{cursor:pointer;color:var(--link)}.mt{margin:.25rem 0}
@media (max-width:900px){body{display:block}nav{position:static;max-height:none;border-right:0;border-bottom:1px solid var(--line)}main{padding:1rem}}
`;

/** The page's Content-Security-Policy: nothing but its own inline style. */
export const REFERENCE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function renderReferencePage(document: OpenApiDocument): string {
  return new Renderer(document).page();
}

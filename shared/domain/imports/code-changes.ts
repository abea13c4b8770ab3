/**
 * The report's code_changes: for common stacks, a unified diff from a typical send through the provider
 * to the same send through us. Examples, not a patch of the team's code (the agent prompt does that):
 * each diff is one hunk of a small made-up file, valid unified-diff text (`--- a/`, `+++ b/`, `@@`
 * counts that match). Pure and deterministic.
 *
 * - node-sdk: the provider's Node SDK kept as it is, pointed at our API and key: the provider-compatible
 *   doors (docs/compat.md) take its requests, template ids included (the door finds an imported template by
 *   the provider's id through the import's template map). The smallest change: the first one offered.
 * - node: the provider's Node SDK (@sendgrid/mail `sgMail.send`, postmark `ServerClient`, mailgun.js
 *   `mg.messages.create`) -> the `resend` npm SDK, which takes our API as `new Resend(key, { baseUrl })`
 *   (ResendOptions.baseUrl; the SDK also reads RESEND_BASE_URL when the option is absent).
 * - python: sendgrid / postmarker -> the `resend` package (`resend.api_key`, `resend.api_url`, the
 *   module variable its requests are made to); Mailgun, whose Python users call its HTTP API with
 *   requests, -> requests to POST {baseUrl}/emails.
 * - curl: the provider's send endpoint -> POST {baseUrl}/emails with `Authorization: Bearer`.
 * - smtp: the provider's SMTP host and user -> our relay (587, STARTTLS, user `mailservice`, an SMTP
 *   credential as the password).
 *
 * With a template map, the sends are template sends with its first entry (the provider's template id ->
 * our alias); without one, plain html sends.
 */
import { PROVIDER_LABELS, type ProviderName } from './source';

export const CODE_CHANGE_STACKS = ['node-sdk', 'node', 'python', 'curl', 'smtp'] as const;
export type CodeChangeStack = (typeof CODE_CHANGE_STACKS)[number];

export interface CodeChange {
  stack: CodeChangeStack;
  label: string;
  diff: string;
}

export interface TemplateMapEntry {
  source_id: string;
  alias: string;
}

export interface CodeChangesInput {
  provider: ProviderName;
  /** Our API's base URL (no trailing slash needed). */
  baseUrl: string;
  templateMap: readonly TemplateMapEntry[];
  /** The SMTP relay's host name, when known; a placeholder otherwise. */
  smtpHost?: string;
}

/** The environment variable the examples read our API key from (never a key in code). */
export const API_KEY_VARIABLE = 'SERVICE_API_KEY';

type DiffLine = readonly [' ' | '-' | '+', string];
const same = (...lines: string[]): DiffLine[] => lines.map((line) => [' ', line] as const);
const removed = (...lines: string[]): DiffLine[] => lines.map((line) => ['-', line] as const);
const added = (...lines: string[]): DiffLine[] => lines.map((line) => ['+', line] as const);

/** One file, one hunk from line 1: old = context + removed lines, new = context + added lines. */
export function unifiedDiff(path: string, lines: readonly DiffLine[]): string {
  const before = lines.filter(([mark]) => mark !== '+').length;
  const after = lines.filter(([mark]) => mark !== '-').length;
  const hunk = [`--- a/${path}`, `+++ b/${path}`, `@@ -1,${before} +1,${after} @@`, ...lines.map(([mark, text]) => `${mark}${text}`)];
  return `${hunk.join('\n')}\n`;
}

/** A single-quoted JavaScript or Python string literal. */
const quoted = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\r?\n/g, '\\n')}'`;
/** A single-quoted shell word. */
const shell = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

const FROM = 'hello@example.com';
const TO = 'user@example.com';
const SUBJECT = 'Hello';
const HTML = '<p>Hello</p>';
const VARIABLES = { name: 'Ada' };
const JS_VARIABLES = "{ name: 'Ada' }";
const PY_VARIABLES = "{'name': 'Ada'}";

interface Example {
  provider: ProviderName;
  baseUrl: string;
  template: TemplateMapEntry | null;
  smtpHost: string;
}

/** A Postmark template id is a number; anything else is sent as its alias. */
const isNumericId = (id: string) => /^\d+$/.test(id);

/** The provider's own SDK, its sends unchanged: only where it sends and with which key (docs/compat.md). */
function sameSdkChange(example: Example): DiffLine[] {
  const { template } = example;
  const api = new URL(example.baseUrl);
  switch (example.provider) {
    case 'sendgrid':
      return [
        ...same("import sgMail from '@sendgrid/mail';"),
        ...added("import { Client } from '@sendgrid/client';"),
        ...same(''),
        ...removed('sgMail.setApiKey(process.env.SENDGRID_API_KEY);'),
        ...added(
          'const client = new Client();',
          `client.setApiKey(process.env.${API_KEY_VARIABLE});`,
          `client.setDefaultRequest('baseUrl', ${quoted(example.baseUrl)});`,
          'sgMail.setClient(client);',
        ),
        ...same(''),
        ...same('await sgMail.send({', `  from: ${quoted(FROM)},`, `  to: ${quoted(TO)},`),
        ...(template
          ? same(`  templateId: ${quoted(template.source_id)},`, `  dynamicTemplateData: ${JS_VARIABLES},`)
          : same(`  subject: ${quoted(SUBJECT)},`, `  html: ${quoted(HTML)},`)),
        ...same('});'),
      ];
    case 'postmark':
      return [
        ...same("import { ServerClient } from 'postmark';", ''),
        ...removed('const client = new ServerClient(process.env.POSTMARK_SERVER_TOKEN);'),
        ...added(
          `const client = new ServerClient(process.env.${API_KEY_VARIABLE}, { requestHost: ${quoted(`${api.host}${api.pathname.replace(/\/+$/, '')}`)}, useHttps: ${api.protocol === 'https:'} });`,
        ),
        ...same(''),
        ...same(
          template ? 'await client.sendEmailWithTemplate({' : 'await client.sendEmail({',
          `  From: ${quoted(FROM)},`,
          `  To: ${quoted(TO)},`,
        ),
        ...(template
          ? same(
              isNumericId(template.source_id) ? `  TemplateId: ${template.source_id},` : `  TemplateAlias: ${quoted(template.source_id)},`,
              `  TemplateModel: ${JS_VARIABLES},`,
            )
          : same(`  Subject: ${quoted(SUBJECT)},`, `  HtmlBody: ${quoted(HTML)},`)),
        ...same('});'),
      ];
    case 'mailgun':
      return [
        ...same("import formData from 'form-data';", "import Mailgun from 'mailgun.js';", ''),
        ...removed("const mg = new Mailgun(formData).client({ username: 'api', key: process.env.MAILGUN_API_KEY });"),
        ...added(
          `const mg = new Mailgun(formData).client({ username: 'api', key: process.env.${API_KEY_VARIABLE}, url: ${quoted(example.baseUrl)} });`,
        ),
        ...same(''),
        ...same("await mg.messages.create('mg.example.com', {", "  from: 'hello@mg.example.com',", `  to: [${quoted(TO)}],`),
        ...(template
          ? same(`  template: ${quoted(template.source_id)},`, `  'h:X-Mailgun-Variables': JSON.stringify(${JS_VARIABLES}),`)
          : same(`  subject: ${quoted(SUBJECT)},`, `  html: ${quoted(HTML)},`)),
        ...same('});'),
      ];
  }
}

/** The lines every Node diff adds: our client, our template or content, the error check. */
interface NodeParts {
  client: DiffLine[];
  ourTemplate: DiffLine[];
  ourContent: DiffLine[];
  checkError: DiffLine[];
}

function nodeFromSendgrid({ template }: Example, { client, ourTemplate, checkError }: NodeParts): DiffLine[] {
  return [
    ...removed("import sgMail from '@sendgrid/mail';"),
    ...added("import { Resend } from 'resend';"),
    ...same(''),
    ...removed('sgMail.setApiKey(process.env.SENDGRID_API_KEY);'),
    ...client,
    ...same(''),
    ...removed('await sgMail.send({'),
    ...added('const { data, error } = await resend.emails.send({'),
    ...same(`  from: ${quoted(FROM)},`, `  to: ${quoted(TO)},`),
    ...(template
      ? [...removed(`  templateId: ${quoted(template.source_id)},`, `  dynamicTemplateData: ${JS_VARIABLES},`), ...ourTemplate]
      : same(`  subject: ${quoted(SUBJECT)},`, `  html: ${quoted(HTML)},`)),
    ...same('});'),
    ...checkError,
  ];
}

function nodeFromPostmark({ template }: Example, { client, ourContent, checkError }: NodeParts): DiffLine[] {
  return [
    ...removed("import { ServerClient } from 'postmark';"),
    ...added("import { Resend } from 'resend';"),
    ...same(''),
    ...removed('const client = new ServerClient(process.env.POSTMARK_SERVER_TOKEN);'),
    ...client,
    ...same(''),
    ...removed(
      template ? 'await client.sendEmailWithTemplate({' : 'await client.sendEmail({',
      `  From: ${quoted(FROM)},`,
      `  To: ${quoted(TO)},`,
    ),
    ...(template
      ? removed(
          isNumericId(template.source_id) ? `  TemplateId: ${template.source_id},` : `  TemplateAlias: ${quoted(template.source_id)},`,
          `  TemplateModel: ${JS_VARIABLES},`,
        )
      : removed(`  Subject: ${quoted(SUBJECT)},`, `  HtmlBody: ${quoted(HTML)},`)),
    ...removed('});'),
    ...added('const { data, error } = await resend.emails.send({', `  from: ${quoted(FROM)},`, `  to: ${quoted(TO)},`),
    ...ourContent,
    ...added('});'),
    ...checkError,
  ];
}

function nodeFromMailgun({ template }: Example, { client, ourTemplate, checkError }: NodeParts): DiffLine[] {
  return [
    ...removed("import formData from 'form-data';", "import Mailgun from 'mailgun.js';"),
    ...added("import { Resend } from 'resend';"),
    ...same(''),
    ...removed("const mg = new Mailgun(formData).client({ username: 'api', key: process.env.MAILGUN_API_KEY });"),
    ...client,
    ...same(''),
    ...removed("await mg.messages.create('mg.example.com', {"),
    ...added('const { data, error } = await resend.emails.send({'),
    ...same("  from: 'hello@mg.example.com',", `  to: [${quoted(TO)}],`),
    ...(template
      ? [
          ...removed(`  template: ${quoted(template.source_id)},`, `  'h:X-Mailgun-Variables': JSON.stringify(${JS_VARIABLES}),`),
          ...ourTemplate,
        ]
      : same(`  subject: ${quoted(SUBJECT)},`, `  html: ${quoted(HTML)},`)),
    ...same('});'),
    ...checkError,
  ];
}

function nodeChange(example: Example): DiffLine[] {
  const { template } = example;
  const ourTemplate = template ? added(`  template: { id: ${quoted(template.alias)}, variables: ${JS_VARIABLES} },`) : [];
  const parts: NodeParts = {
    client: added(`const resend = new Resend(process.env.${API_KEY_VARIABLE}, { baseUrl: ${quoted(example.baseUrl)} });`),
    ourTemplate,
    ourContent: template ? ourTemplate : added(`  subject: ${quoted(SUBJECT)},`, `  html: ${quoted(HTML)},`),
    checkError: added('if (error) throw new Error(error.message);'),
  };
  const fromProvider = { sendgrid: nodeFromSendgrid, postmark: nodeFromPostmark, mailgun: nodeFromMailgun }[example.provider];
  return fromProvider(example, parts);
}

/** The lines every Python diff to the resend package adds: its setup and the send. */
interface PythonParts {
  resendSetup: DiffLine[];
  resendSend: DiffLine[];
}

function pythonFromSendgrid({ template }: Example, { resendSetup, resendSend }: PythonParts): DiffLine[] {
  return [
    ...same('import os'),
    ...removed('from sendgrid import SendGridAPIClient', 'from sendgrid.helpers.mail import Mail'),
    ...added('import resend'),
    ...same(''),
    ...(template
      ? removed(
          `message = Mail(from_email=${quoted(FROM)}, to_emails=${quoted(TO)})`,
          `message.template_id = ${quoted(template.source_id)}`,
          `message.dynamic_template_data = ${PY_VARIABLES}`,
        )
      : removed(
          `message = Mail(from_email=${quoted(FROM)}, to_emails=${quoted(TO)}, subject=${quoted(SUBJECT)}, html_content=${quoted(HTML)})`,
        )),
    ...removed("SendGridAPIClient(os.environ['SENDGRID_API_KEY']).send(message)"),
    ...resendSetup,
    ...resendSend,
  ];
}

function pythonFromPostmark({ template }: Example, { resendSetup, resendSend }: PythonParts): DiffLine[] {
  return [
    ...same('import os'),
    ...removed('from postmarker.core import PostmarkClient'),
    ...added('import resend'),
    ...same(''),
    ...removed("postmark = PostmarkClient(server_token=os.environ['POSTMARK_SERVER_TOKEN'])"),
    ...(template
      ? removed(
          'postmark.emails.send_with_template(',
          isNumericId(template.source_id) ? `    TemplateId=${template.source_id},` : `    TemplateAlias=${quoted(template.source_id)},`,
          `    TemplateModel=${PY_VARIABLES},`,
        )
      : removed('postmark.emails.send(', `    Subject=${quoted(SUBJECT)},`, `    HtmlBody=${quoted(HTML)},`)),
    ...removed(`    From=${quoted(FROM)},`, `    To=${quoted(TO)},`, ')'),
    ...resendSetup,
    ...resendSend,
  ];
}

/** Mailgun's Python users call its HTTP API with requests: the same call, to POST {baseUrl}/emails. */
function pythonFromMailgun({ template, baseUrl }: Example): DiffLine[] {
  return [
    ...same('import json', 'import os', 'import requests', '', 'requests.post('),
    ...removed(
      "    'https://api.mailgun.net/v3/mg.example.com/messages',",
      "    auth=('api', os.environ['MAILGUN_API_KEY']),",
      '    data={',
    ),
    ...added(
      `    ${quoted(`${baseUrl}/emails`)},`,
      `    headers={'Authorization': f"Bearer {os.environ['${API_KEY_VARIABLE}']}"},`,
      '    json={',
    ),
    ...same("        'from': 'hello@mg.example.com',", `        'to': [${quoted(TO)}],`),
    ...(template
      ? [
          ...removed(`        'template': ${quoted(template.source_id)},`, `        't:variables': json.dumps(${PY_VARIABLES}),`),
          ...added(`        'template': {'id': ${quoted(template.alias)}, 'variables': ${PY_VARIABLES}},`),
        ]
      : same(`        'subject': ${quoted(SUBJECT)},`, `        'html': ${quoted(HTML)},`)),
    ...same('    },', ')'),
  ];
}

function pythonChange(example: Example): DiffLine[] {
  const { template } = example;
  const ourContent = template
    ? [`    'template': {'id': ${quoted(template.alias)}, 'variables': ${PY_VARIABLES}},`]
    : [`    'subject': ${quoted(SUBJECT)},`, `    'html': ${quoted(HTML)},`];
  const parts: PythonParts = {
    resendSetup: added(`resend.api_key = os.environ['${API_KEY_VARIABLE}']`, `resend.api_url = ${quoted(example.baseUrl)}`),
    resendSend: added('resend.Emails.send({', `    'from': ${quoted(FROM)},`, `    'to': [${quoted(TO)}],`, ...ourContent, '})'),
  };
  const fromProvider = { sendgrid: pythonFromSendgrid, postmark: pythonFromPostmark, mailgun: pythonFromMailgun }[example.provider];
  return fromProvider(example, parts);
}

function ourCurl(example: Example, from: string): DiffLine[] {
  const content = example.template ? { template: { id: example.template.alias, variables: VARIABLES } } : { subject: SUBJECT, html: HTML };
  return added(
    `curl -X POST ${shell(`${example.baseUrl}/emails`)} \\`,
    `  -H "Authorization: Bearer $${API_KEY_VARIABLE}" \\`,
    "  -H 'Content-Type: application/json' \\",
    `  -d ${shell(JSON.stringify({ from, to: [TO], ...content }))}`,
  );
}

function curlChange(example: Example): DiffLine[] {
  const { template } = example;
  switch (example.provider) {
    case 'sendgrid': {
      const personalization = template ? { to: [{ email: TO }], dynamic_template_data: VARIABLES } : { to: [{ email: TO }] };
      const body = template
        ? { from: { email: FROM }, personalizations: [personalization], template_id: template.source_id }
        : { from: { email: FROM }, personalizations: [personalization], subject: SUBJECT, content: [{ type: 'text/html', value: HTML }] };
      return [
        ...removed(
          'curl -X POST https://api.sendgrid.com/v3/mail/send \\',
          '  -H "Authorization: Bearer $SENDGRID_API_KEY" \\',
          "  -H 'Content-Type: application/json' \\",
          `  -d ${shell(JSON.stringify(body))}`,
        ),
        ...ourCurl(example, FROM),
      ];
    }
    case 'postmark': {
      const templateRef = template
        ? isNumericId(template.source_id)
          ? { TemplateId: Number(template.source_id) }
          : { TemplateAlias: template.source_id }
        : {};
      const body = template
        ? { From: FROM, To: TO, ...templateRef, TemplateModel: VARIABLES }
        : { From: FROM, To: TO, Subject: SUBJECT, HtmlBody: HTML };
      return [
        ...removed(
          `curl -X POST https://api.postmarkapp.com/${template ? 'email/withTemplate' : 'email'} \\`,
          '  -H "X-Postmark-Server-Token: $POSTMARK_SERVER_TOKEN" \\',
          "  -H 'Content-Type: application/json' \\",
          `  -d ${shell(JSON.stringify(body))}`,
        ),
        ...ourCurl(example, FROM),
      ];
    }
    case 'mailgun':
      return [
        ...removed(
          'curl -s --user "api:$MAILGUN_API_KEY" https://api.mailgun.net/v3/mg.example.com/messages \\',
          "  -F from='hello@mg.example.com' \\",
          `  -F to=${shell(TO)} \\`,
          ...(template
            ? [`  -F template=${shell(template.source_id)} \\`, `  -F t:variables=${shell(JSON.stringify(VARIABLES))}`]
            : [`  -F subject=${shell(SUBJECT)} \\`, `  -F html=${shell(HTML)}`]),
        ),
        ...ourCurl(example, 'hello@mg.example.com'),
      ];
  }
}

const SMTP_SETTINGS: Record<ProviderName, { host: string; user: string; pass: string }> = {
  sendgrid: { host: 'smtp.sendgrid.net', user: 'apikey', pass: '<your SendGrid API key>' },
  postmark: { host: 'smtp.postmarkapp.com', user: '<your Postmark server token>', pass: '<your Postmark server token>' },
  mailgun: { host: 'smtp.mailgun.org', user: 'postmaster@mg.example.com', pass: '<your Mailgun SMTP password>' },
};

function smtpChange(example: Example): DiffLine[] {
  const theirs = SMTP_SETTINGS[example.provider];
  return [
    ...removed(`SMTP_HOST=${theirs.host}`),
    ...added(`SMTP_HOST=${example.smtpHost}`),
    ...same('SMTP_PORT=587'),
    ...removed(`SMTP_USER=${theirs.user}`, `SMTP_PASS=${theirs.pass}`),
    ...added('SMTP_USER=mailservice', 'SMTP_PASS=<an SMTP credential, svcsmtp_..., from POST /smtp-credentials>'),
  ];
}

const SDK_NAMES: Record<ProviderName, { node: string; python: string; endpoint: string }> = {
  sendgrid: { node: '@sendgrid/mail', python: 'sendgrid', endpoint: 'POST /v3/mail/send' },
  postmark: { node: 'postmark', python: 'postmarker', endpoint: 'POST /email' },
  mailgun: { node: 'mailgun.js', python: 'requests to the Mailgun API', endpoint: 'POST /v3/{domain}/messages' },
};

export function codeChanges(input: CodeChangesInput): CodeChange[] {
  const label = PROVIDER_LABELS[input.provider];
  const example: Example = {
    provider: input.provider,
    baseUrl: input.baseUrl.trim().replace(/\/+$/, ''),
    template: input.templateMap[0] ?? null,
    smtpHost: input.smtpHost?.trim() || '<your SMTP relay host>',
  };
  const names = SDK_NAMES[input.provider];
  const templateNote = example.template ? ` (${label} template ${example.template.source_id} is now "${example.template.alias}")` : '';
  return [
    {
      stack: 'node-sdk',
      label: `Node.js: keep ${names.node} and its sends as they are; point it at ${example.baseUrl} with our API key (the ${label}-compatible door: docs/compat.md)`,
      diff: unifiedDiff('src/send-email.js', sameSdkChange(example)),
    },
    {
      stack: 'node',
      label: `Node.js: ${names.node} -> the resend SDK (npm install resend) with our baseUrl${templateNote}`,
      diff: unifiedDiff('src/send-email.js', nodeChange(example)),
    },
    {
      stack: 'python',
      label: `Python: ${names.python} -> ${input.provider === 'mailgun' ? 'requests to POST /emails' : 'the resend package (pip install resend) with our api_url'}${templateNote}`,
      diff: unifiedDiff('send_email.py', pythonChange(example)),
    },
    {
      stack: 'curl',
      label: `HTTP: ${label} ${names.endpoint} -> POST ${example.baseUrl}/emails${templateNote}`,
      diff: unifiedDiff('send-email.sh', curlChange(example)),
    },
    {
      stack: 'smtp',
      label: `SMTP: ${SMTP_SETTINGS[input.provider].host} -> our relay (port 587, STARTTLS, user mailservice, an SMTP credential as password)`,
      diff: unifiedDiff('.env', smtpChange(example)),
    },
  ];
}

/**
 * The dashboard's static assets, bundled in the code (no CDN, no build step): one stylesheet and one
 * small script of progressive enhancement (every page works without it). Served by the dashboard group
 * at content-hashed URLs (`/dashboard/assets/app.<hash>.css`), so they can be cached for a year: a new
 * version is a new URL.
 *
 * The script (./script.ts) shows the DNS host's credential fields, adds "Copy" beside a secret shown
 * once, and sends the actions that have a session door to it (./doors.ts).
 */
import { createHash } from 'node:crypto';
import { APP_JS } from './script';

export { APP_JS };

export const APP_CSS = `
:root{--fg:#1f2328;--muted:#59636e;--bg:#f6f8fa;--card:#fff;--line:#d1d9e0;--accent:#0b5cad;--ok:#1a7f37;--bad:#c0262d;--warn:#9a6700;--focus:#0969da;color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:10}
.skip:focus{left:1rem}
header.top{background:#24292f;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.25rem}
header.top a{color:#fff}
.brand{font-weight:600;text-decoration:none}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.15rem .9rem}
nav a{text-decoration:none;padding:.2rem 0;display:inline-block}
nav a[aria-current=page]{text-decoration:underline;text-underline-offset:.35em;font-weight:600}
header.top form{margin-left:auto;display:flex;gap:.5rem;align-items:center}
header.top .who{color:#d0d7de;font-size:.9em}header.top .who a.members{color:#d0d7de}
main{max-width:72rem;margin:0 auto;padding:1rem 1rem 4rem}
h1{font-size:1.5rem;margin:.75rem 0}
h2{font-size:1.15rem;margin:1.75rem 0 .5rem}
section,.card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;margin:1rem 0}
section>h2:first-child{margin-top:.25rem}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
code.value{word-break:break-all}
th{font-weight:600;background:#f0f3f6}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.table-wrap{overflow-x:auto}
form.inline{display:inline}
.fields{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.field{display:flex;flex-direction:column;align-items:flex-start;gap:.15rem;margin:.25rem 0}
.field textarea{align-self:stretch}
label{font-weight:500}
.hint{color:var(--muted);font-size:.9em}
input[type=text],input[type=email],input[type=url],input[type=password],input[type=search],select,textarea{font:inherit;padding:.35rem .5rem;border:1px solid #8c959f;border-radius:4px;background:#fff;color:inherit;min-width:12rem}
input[type=email],input[type=url]{min-width:18rem}
textarea{width:100%;min-height:8rem;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
fieldset{border:1px solid var(--line);border-radius:4px;margin:.5rem 0;padding:.5rem .75rem}
legend{font-weight:600;padding:0 .25rem}
.checks{display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.checks label{font-weight:400}
button{font:inherit;padding:.35rem .9rem;border:1px solid #1f2328;border-radius:4px;background:#1f2328;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:var(--fg)}
a.button{display:inline-block;font:inherit;padding:.35rem .9rem;border:1px solid #1f2328;border-radius:4px;background:#fff;color:var(--fg);text-decoration:none}
button.danger{background:#fff;color:var(--bad);border-color:var(--bad)}
header.top button{background:transparent;border-color:#8c959f;color:#fff}
.flash{margin:.5rem 0}
.flash p{margin:0;padding:.5rem .75rem;border-radius:4px;border:1px solid}
.flash .ok{background:#dafbe1;border-color:#4ac26b}
.flash .error{background:#ffebe9;border-color:#ff8182}
.banner{margin:.5rem 0;padding:.5rem .75rem;border-radius:4px;border:1px solid}
.banner.error{background:#ffebe9;border-color:#ff8182}
.banner h2{margin:0 0 .25rem;font-size:1.1rem}
.banner dl.figures{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.25rem 0 0}
.banner dl.figures dd{margin:0}
.status{display:inline-block;padding:0 .45rem;border-radius:1em;font-size:.85em;border:1px solid var(--line);background:#f6f8fa;white-space:nowrap}
.status.good{background:#dafbe1;border-color:#4ac26b}
.status.bad{background:#ffebe9;border-color:#ff8182}
.status.wait{background:#fff8c5;border-color:#d4a72c}
pre,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{background:#f6f8fa;border:1px solid var(--line);border-radius:4px;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-all;max-height:30rem}
section.notice{border-left:4px solid var(--warn)}
section.notice.bad{border-left-color:var(--bad)}
.secret{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;border:2px solid var(--warn);background:#fff8c5;border-radius:6px;padding:.75rem}
.secret code{font-size:1rem;word-break:break-all;background:#fff;padding:.25rem .5rem;border-radius:4px}
iframe.preview{width:100%;min-height:28rem;border:1px solid var(--line);border-radius:4px;background:#fff}
ol.timeline{list-style:none;padding:0;margin:0;border-left:3px solid var(--line)}
ol.timeline li{padding:.25rem .75rem;position:relative}
ol.timeline li::before{content:"";position:absolute;left:-.45rem;top:.7rem;width:.6rem;height:.6rem;border-radius:50%;background:var(--accent)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;word-break:break-word}
.pager{display:flex;gap:1rem;margin:.75rem 0}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.75rem 0}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));gap:1rem}
figure{margin:0}
figcaption{font-weight:600;margin-bottom:.25rem}
svg.chart{width:100%;height:auto;background:#fff}
svg .axis{stroke:#8c959f;stroke-width:1}
svg .bar{fill:#0b5cad}
svg text{font-size:11px;fill:#59636e}
svg .s0{stroke:#1a7f37;fill:none;stroke-width:2}
svg .s1{stroke:#c0262d;fill:none;stroke-width:2;stroke-dasharray:6 3}
svg .s2{stroke:#9a6700;fill:none;stroke-width:2;stroke-dasharray:2 3}
svg circle.s0{fill:#1a7f37}svg circle.s1{fill:#c0262d}svg circle.s2{fill:#9a6700}
.legend{display:flex;gap:1rem;font-size:.9em;list-style:none;padding:0;margin:.25rem 0}
.legend .k0{color:#1a7f37}.legend .k1{color:#c0262d}.legend .k2{color:#9a6700}
details summary{cursor:pointer}
.muted{color:var(--muted)}
.narrow{max-width:26rem}
@media (prefers-reduced-motion:reduce){*{scroll-behavior:auto}}
`.trim();

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

export const ASSETS = {
  css: { path: `/dashboard/assets/app.${hashOf(APP_CSS)}.css`, body: APP_CSS, type: 'text/css; charset=utf-8' },
  js: { path: `/dashboard/assets/app.${hashOf(APP_JS)}.js`, body: APP_JS, type: 'text/javascript; charset=utf-8' },
} as const;

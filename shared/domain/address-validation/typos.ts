/**
 * Typo suggestions for the domains of the large mailbox providers (`gmial.com` -> `gmail.com`), as
 * Mailgun's `did_you_mean` and SendGrid's `suggestion` answer. The rule: the domain (in Unicode form) is not
 * on the list and is at most one edit from an entry of fewer than 9 characters, or two edits from a longer
 * one (an edit: a character inserted, removed, replaced, or two neighbours swapped: the optimal string
 * alignment distance). The closest entry wins, the earlier entry on a tie (the list is in rough order of
 * popularity). Real providers one edit apart from a large one (ymail.com, mail.com, gmx.com, ...) are on
 * the list so they are never "corrected".
 */
export const COMMON_DOMAINS: readonly string[] = [
  'gmail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'icloud.com',
  'aol.com',
  'live.com',
  'msn.com',
  'googlemail.com',
  'me.com',
  'mac.com',
  'protonmail.com',
  'proton.me',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'mail.com',
  'zoho.com',
  'ymail.com',
  'rocketmail.com',
  'fastmail.com',
  'hey.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'yahoo.de',
  'hotmail.co.uk',
  'hotmail.fr',
  'hotmail.de',
  'hotmail.it',
  'outlook.fr',
  'outlook.de',
  'live.co.uk',
  'live.fr',
  'btinternet.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'comcast.net',
  'verizon.net',
  'att.net',
  'sbcglobal.net',
  't-online.de',
  'qq.com',
  '163.com',
  '126.com',
  'naver.com',
];

const KNOWN = new Set(COMMON_DOMAINS);

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one substring). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The common domain `domain` is probably a typo of, or null. */
export function suggestDomain(domain: string): string | null {
  const given = domain.toLowerCase();
  if (KNOWN.has(given)) return null;
  let best: { domain: string; distance: number } | null = null;
  for (const candidate of COMMON_DOMAINS) {
    const allowed = candidate.length < 9 ? 1 : 2;
    if (Math.abs(candidate.length - given.length) > allowed) continue;
    const distance = editDistance(given, candidate);
    if (distance <= allowed && (best === null || distance < best.distance)) best = { domain: candidate, distance };
  }
  return best?.domain ?? null;
}

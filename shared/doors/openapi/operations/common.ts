/** What several groups' operations share: the list pages' description, common path parameters and scope sets. */


export const page = (name: string) => `${name}, newest first: \`?limit\` (1-100, default 25) and \`?cursor\` (the previous page's next_cursor).`;

/** What the list operations of several groups say about their pages: newest first, `?limit` and `?cursor`. */
export const page = (name: string) =>
  `${name}, newest first: \`?limit\` (1-100, default 25) and \`?cursor\` (the previous page's next_cursor).`;

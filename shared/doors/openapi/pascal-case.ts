/** `sendEmail` -> `SendEmail`: how the document names components after operations and error codes. */
export const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

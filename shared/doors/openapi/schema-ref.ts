/** How the document points at one of its schema components. */
export const SCHEMA_REF = (name: string) => `#/components/schemas/${name}`;

export const ref = (name: string) => ({ $ref: SCHEMA_REF(name) });

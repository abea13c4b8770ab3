/**
 * The zod schema of a model declared as an interface (where the interface stays the source of the type):
 * `modelSchema<Email>()(z.object({...}))` compiles only when the schema's output is the model and the
 * schema names exactly the model's keys, so the two cannot drift. A key the schema forgot would be
 * dropped when a stored item is decoded, silently; a key the model lacks would be kept unseen. Pure: an
 * identity at run time.
 */
import type * as z from 'zod';

type MissingKeys<Model, S extends z.ZodType> = Exclude<keyof Model, keyof z.output<S>>;
type ExtraKeys<Model, S extends z.ZodType> = Exclude<keyof z.output<S>, keyof Model>;
type SameKeys<Model, S extends z.ZodType> = [MissingKeys<Model, S>, ExtraKeys<Model, S>] extends [never, never]
  ? unknown
  : { keysMissingFromSchema: MissingKeys<Model, S>; keysNotInModel: ExtraKeys<Model, S> };

export function modelSchema<Model>() {
  return <S extends z.ZodType<Model>>(schema: S & SameKeys<Model, S>): S => schema;
}

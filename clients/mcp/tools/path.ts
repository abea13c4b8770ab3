/** Path segments of the API built from tool arguments: always percent-encoded, so an id can never change the path. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/** JSON Feed 1.1's JSON Schema (draft-07), as the `jsonfeed-schema` package gives it (it ships no types). */
declare module 'jsonfeed-schema/v1.1.js' {
  const schema: Record<string, unknown>;
  export default schema;
}

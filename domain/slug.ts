/**
 * The form of every trip and peak identifier in a URL. Kept apart from the Zod schemas
 * (schemas/vocabulary.ts builds `slug` from it) so the request rules test a path without
 * loading Zod.
 */
export const slugPattern = /^[a-z0-9-]+$/;

/**
 * The months by their English names, January first: a peak's best months in the content
 * (domain/schemas/peak.ts), the seeded departures, and the long dates (format.ts). A module with
 * no imports, so that what formats dates (the MCP App view's script among them) takes no schema
 * and no zod with it.
 */
export const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * The names and descriptions of the published agent skills, apart from their texts: the list of
 * site files (read by the request rules, which the routing middleware carries) needs only these.
 */
export interface SkillSummary {
  /** `[a-z0-9-]`, 1 to 64 characters: the folder name in the URL. */
  name: string;
  /** What it does and when to use it (the index and the SKILL.md frontmatter carry it). */
  description: string;
}

export const skillSummaries: SkillSummary[] = [
  {
    name: 'find-and-compare-trips',
    description:
      'Find and compare guided treks and climbing expeditions in the Indian Himalaya by type, region, difficulty and price, then read one trip in full. Use when someone asks which Himalayan trek or expedition suits them.',
  },
  {
    name: 'check-departures',
    description:
      'Check the live departure dates, status and seats left of a Himalayan trek or expedition, and explain how to enquire. Use when someone asks when a trip runs, whether seats are free, or which dates fit their dates, group size, length and budget.',
  },
  {
    name: 'send-an-enquiry',
    description:
      "Send a booking enquiry for a person to the operator's team, who call them back to confirm seats and dates, only with the person's own name, phone number and consent; or hand them the trip page's form. Use when someone asks to book, reserve or enquire about a Himalayan trek or expedition.",
  },
  {
    name: 'cite-peak-dataset',
    description:
      'Look up Indian Himalayan climbing peaks (altitude, Alpine grade, royalty band and fee, open-peak status, best months) in an open CC-BY-4.0 dataset and cite it correctly. Use when answering questions about these peaks or reusing the data.',
  },
];

/** Where a SKILL.md is served: under /.well-known (the discovery location) and at the site root. */
export function skillPath(name: string, options: { wellKnown?: boolean } = {}): string {
  return `${options.wellKnown === false ? '' : '/.well-known'}/agent-skills/${name}/SKILL.md`;
}

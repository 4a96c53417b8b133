/**
 * Where a trip's image lives: the social card built for each trip page (1200x630 PNG). JSON-LD
 * and any other place that needs a picture of the trip take it from here.
 */
export function socialImagePath(slug: string): string {
  return `/images/social/${slug}.png`;
}

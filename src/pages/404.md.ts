/** The 404 recovery note for Markdown clients (also published as /404.md). */
import type { APIRoute } from 'astro';
import { markdownResponse } from '../../service/markdown/response.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () => {
  const { siteUrl } = await getCatalogue();
  return markdownResponse(
    [
      '# Page not found',
      '',
      'There is no page at this address. To find your way:',
      '',
      `- [Sitemap](${siteUrl}/sitemap-index.xml): every page of the site.`,
      `- [Developer page](${siteUrl}/developers): the read-only JSON API under ${siteUrl}/v1/.`,
      `- [llms.txt](${siteUrl}/llms.txt): the guide for agents, with links to every Markdown page.`,
      '',
    ].join('\n'),
  );
};

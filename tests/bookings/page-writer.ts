/**
 * A bare page frame for handler tests: the hosts write answer pages into the site's built frame
 * (service/functions/page-shell.ts), which only exists after a site build; the browser tests
 * see that one.
 */
import { escapeHtml } from '../../domain/html.ts';
import type { PageWriter } from '../../service/bookings/responses.ts';

export const barePage: PageWriter = (page) =>
  `<!doctype html><html lang="en"><head><title>${escapeHtml(page.title)}</title><meta name="robots" content="noindex"></head><body><main>${page.main.value}</main></body></html>`;

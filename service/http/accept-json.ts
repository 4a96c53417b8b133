/** Content negotiation of /v1: every answer is JSON, so only an Accept header that rules JSON out matters. */

/** True unless the Accept header rules JSON out (`*\/*` and browser defaults accept it). */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    const media = type.trim();
    return media === 'application/json' || media === 'application/*' || media === '*/*';
  });
}

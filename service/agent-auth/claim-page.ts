/**
 * The claim page (`/agent/claim`): a person types the code their agent showed them, which
 * confirms that agent's registration. The form posts to the page itself; what the POST
 * decided (service/agent-auth/claim.ts) is shown in place, with the form again unless it worked.
 */
import { html, type SafeHtml } from '../../domain/html.ts';
import type { ClaimPageOutcome } from './claim.ts';
import { lifetimes, publicReadScope } from './metadata.ts';

export const claimPageStatus: Record<ClaimPageOutcome['kind'], number> = {
  confirmed: 200,
  invalid_code: 400,
  bad_request: 400,
  cross_origin: 403,
  too_many_attempts: 429,
  unavailable: 503,
};

function notice(outcome: ClaimPageOutcome | null): SafeHtml | '' {
  const codeMinutes = Math.round(lifetimes.userCodeSeconds / 60);
  switch (outcome?.kind) {
    case 'invalid_code':
      return html`<p class="notice" role="alert">That code did not work. It may be mistyped, already used, or expired (codes last ${codeMinutes} minutes). Check the code your agent shows, or ask it for a new one.</p>`;
    case 'bad_request':
      return html`<p class="notice" role="alert">The form could not be read. Please type the code again.</p>`;
    case 'cross_origin':
      return html`<p class="notice" role="alert">This confirmation did not come from this page, so it was ignored. If you meant to confirm an agent, type its code in the form below.</p>`;
    case 'too_many_attempts':
      return html`<p class="notice" role="alert">Too many attempts from your connection. Wait ${outcome.retryAfterSeconds} seconds, then try again.</p>`;
    case 'unavailable':
      return html`<p class="notice" role="alert">Confirming agents is not possible right now. Please try again in a few minutes.</p>`;
    default:
      return '';
  }
}

/** The page's main content for a GET (`outcome` null, `typed` from the link) or after a POST. */
export function claimPageMain(serviceName: string, outcome: ClaimPageOutcome | null, typed: string): SafeHtml {
  const heading =
    outcome?.kind === 'confirmed'
      ? html`<h1>Done: the agent is confirmed</h1>
<p class="lead" role="status">You can go back to your agent. It will carry on by itself within a few seconds.</p>
<p>It can now read the catalogue with the <code>${publicReadScope}</code> scope, the same public information anyone can see. Nothing else was shared and nothing was booked or paid.</p>`
      : html`<h1>Confirm an agent</h1>
<p class="lead">An AI agent or app asked to register with ${serviceName} and showed you a code. Type that code here to confirm it is acting for you.</p>`;
  const form =
    outcome?.kind === 'confirmed'
      ? ''
      : html`<form method="post" action="/agent/claim" class="claim-form">
<label for="user_code">Code from your agent</label>
<input id="user_code" name="user_code" type="text" value="${typed}" required autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" maxlength="20" placeholder="BCDF-GHJK" aria-describedby="code-help">
<p id="code-help" class="muted">Eight letters, like BCDF-GHJK. Dashes, spaces and lower case are fine.</p>
<button type="submit">Confirm this agent</button>
</form>`;
  return html`${heading}
${notice(outcome)}
${form}
<h2>What confirming means</h2>
<ul>
<li>The agent gets read-only access (<code>${publicReadScope}</code>) to the catalogue: trips, departures and peaks that anyone can already see.</li>
<li>No account is created and no email is sent. Nothing is booked or paid.</li>
<li>If you did not ask an agent to do this, do not type any code; just close this page.</li>
</ul>`;
}

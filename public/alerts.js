// Departure alerts' forms (service/alerts/watch-form.ts) on the board and the trip pages. Without
// this script each is a plain form whose answer is a page of its own. With it, the form is sent
// in place: its status line says the server's own sentence (the same whatever the address had
// asked before), the email field keeps focus on a refusal, and nothing else on the page moves.
// One listener on the document, so forms the board or a trip page puts in later are sent the same way.
(() => {
  if (!window.fetch) return;
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('form[data-watch]')) return;
    event.preventDefault();
    const status = form.querySelector('.watch-status');
    const button = form.querySelector('button[type="submit"]');
    const email = form.querySelector('input[name="email"]');
    const say = (text, refused) => {
      if (status) status.textContent = text;
      if (email) email.setAttribute('aria-invalid', refused ? 'true' : 'false');
      if (refused && email) email.focus();
    };
    const fields = Object.fromEntries(new FormData(form));
    if (button) button.disabled = true;
    say('Sending…', false);
    fetch(form.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(fields),
    })
      .then(async (response) => {
        const body = await response.json().catch(() => ({}));
        if (response.ok) {
          say(body.message || 'Check your inbox for the email to confirm.', false);
          if (email) email.value = '';
        } else {
          say((body.error && body.error.message) || 'That did not work. Please try again in a minute.', true);
        }
      })
      .catch(() => say('It could not be sent: check the connection and try again.', true))
      .finally(() => {
        if (button) button.disabled = false;
      });
  });
})();

// Enhances the enquiry form (src/components/EnquiryForm.astro): posts JSON, shows each field's
// error next to it, announces the outcome. Without this file the form posts as plain HTML.
(() => {
  const form = document.querySelector('form[data-enquiry]');
  if (!form || !window.fetch) return;
  const status = form.querySelector('[role=status]');
  const button = form.querySelector('button[type=submit]');
  // The server's messages are plainer than the browser's bubbles, so it checks the fields.
  form.noValidate = true;

  const say = (text, outcome) => {
    status.textContent = text;
    status.dataset.outcome = outcome || '';
  };
  const errorOf = (name) => document.getElementById(`enquiry-${name}-error`);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    for (const input of form.querySelectorAll('[aria-invalid]')) {
      input.removeAttribute('aria-invalid');
      errorOf(input.name).textContent = '';
    }
    const data = Object.fromEntries(new FormData(form));
    if (/^\d+$/.test(data.groupSize)) data.groupSize = Number(data.groupSize);
    button.disabled = true;
    say('Sending your enquiry…');
    let response;
    let body;
    try {
      response = await fetch(form.action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(data),
      });
      body = await response.json();
    } catch {
      button.disabled = false;
      say('Your enquiry could not be sent. Check your connection and try again.', 'bad');
      return;
    }
    button.disabled = false;
    // Received, or saved to be sent later: either way it must not be sent again.
    if (body.enquiry) {
      form.reset();
      say(body.next, 'ok');
      return;
    }
    let first;
    for (const { field, message } of body.error.fields || []) {
      const input = form.elements[field];
      const error = errorOf(field);
      if (!input || !error || input.type === 'hidden') continue;
      input.setAttribute('aria-invalid', 'true');
      error.textContent = message;
      first = first || input;
    }
    say(body.error.message, 'bad');
    if (first) first.focus();
  });
})();

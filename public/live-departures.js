// Loads a trip's live departures into its page (src/components/LiveDepartures.astro): the page is
// built once per deploy, the dates and seats come from the departures function each time.
// Without this script the page keeps its link to the same dates on the live departures board.
// Once they are in, a `live-departures` event tells the enquiry form (/enquiry.js) to offer them.
(() => {
  const slot = document.querySelector('[data-live-departures-for]');
  if (!slot || !window.fetch) return;
  const slug = slot.getAttribute('data-live-departures-for');
  const link = slot.querySelector('.live-link');

  fetch(`/departures/block?trip=${encodeURIComponent(slug)}`, { headers: { Accept: 'text/html' } })
    .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
    .then((html) => {
      const block = document.createElement('div');
      block.innerHTML = html;
      slot.replaceChildren(...block.childNodes);
      slot.dataset.loaded = 'true';
      document.dispatchEvent(new CustomEvent('live-departures', { detail: { slot } }));
    })
    .catch(() => {
      if (link) link.insertAdjacentHTML('beforeend', ' <span class="muted">The dates could not be loaded here; the link shows them.</span>');
    });
})();

// Loads a trip's live departures into its page (src/components/LiveDepartures.astro): the page is
// built once per deploy, the dates and seats come from the departures function each time, as a
// small document whose block is put here. Without this script the page frames the same document.
// Once they are in, a `live-departures` event tells the enquiry form (/enquiry.js) to offer them.
(() => {
  const slot = document.querySelector('[data-live-departures-for]');
  if (!slot || !window.fetch || !window.DOMParser) return;
  const slug = slot.getAttribute('data-live-departures-for');
  const link = slot.querySelector('.live-link');

  fetch(`/departures/block?trip=${encodeURIComponent(slug)}`, { headers: { Accept: 'text/html' } })
    .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
    .then((html) => {
      const block = new DOMParser().parseFromString(html, 'text/html').querySelector('[data-live-departures]');
      if (!block) throw new Error('no departures in the answer');
      slot.replaceChildren(document.importNode(block, true));
      slot.dataset.loaded = 'true';
      document.dispatchEvent(new CustomEvent('live-departures', { detail: { slot } }));
    })
    .catch(() => {
      if (link)
        link.insertAdjacentHTML(
          'beforeend',
          ' <span class="muted">The dates could not be loaded here; the link shows them.</span>',
        );
    });
})();

// The departure search form (service/departures/search-form.ts), on the board and the home page.
// Without this script it is a plain GET form to /departures and works the same. With it: "to"
// cannot be set before "from" (the browser says so before anything is sent), the address holds
// only the filters given (short, and the one a person can share), and on the board the new
// results replace the page's content in place, with the filters folded as the server folds them,
// and the address follows, so Back and a shared link show the same search.
(() => {
  if (!window.fetch || !window.DOMParser || !window.URLSearchParams) return;

  const addressOf = (form) => {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (String(value).trim()) params.append(name, String(value).trim());
    const query = params.toString();
    return `${new URL(form.action, location.href).pathname}${query ? `?${query}` : ''}`;
  };

  // The board's content for `address`, put in place of this page's.
  const show = async (address) => {
    const response = await fetch(address, { headers: { Accept: 'text/html' } });
    if (!response.ok) throw new Error(String(response.status));
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const main = page.querySelector('main');
    const results = main && main.querySelector('[data-search-results]');
    if (!results) throw new Error('not the board');
    document.title = page.title;
    // Its script is this one, already running.
    const nodes = [...main.childNodes].filter((node) => node.nodeName !== 'SCRIPT');
    document.querySelector('main').replaceChildren(...nodes.map((node) => document.importNode(node, true)));
    enhance();
    return document.querySelector('[data-search-results]');
  };

  function enhance() {
    const form = document.querySelector('form[data-departure-search]');
    if (!form) return;
    const { from, to } = form.elements;
    const keepOrder = () => {
      to.min = from.value;
      to.setCustomValidity(
        from.value && to.value && to.value < from.value ? '“Starting by” must be on or after “Starting from”.' : '',
      );
    };
    from.addEventListener('change', keepOrder);
    to.addEventListener('change', keepOrder);
    keepOrder();

    form.addEventListener('submit', (event) => {
      event.preventDefault();
      keepOrder();
      if (!form.reportValidity()) return;
      const address = addressOf(form);
      // On the home page the search is a page of its own.
      if (!document.querySelector('[data-search-results]')) {
        location.assign(address);
        return;
      }
      show(address)
        .then((results) => {
          history.pushState({ search: address }, '', address);
          // As after a page load: the top of the page in view, the results next for a screen reader.
          document.querySelector('main').scrollIntoView({ block: 'start' });
          results.focus({ preventScroll: true });
        })
        // Anything else (a refusal, a failed network): the address itself, as without this script.
        .catch(() => location.assign(address));
    });
  }

  enhance();
  // Back and Forward between searches: the board of that address.
  addEventListener('popstate', () => {
    if (document.querySelector('[data-search-results]'))
      show(location.pathname + location.search).catch(() => location.reload());
  });
})();

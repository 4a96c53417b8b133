// Keeps this trip page readable offline (/sw.js, docs/offline.md): once the page has loaded and
// the browser is idle, so the first visit is never slowed, it registers the worker and asks it to
// keep the page and the files the page used. Without it, or without JavaScript, nothing is kept.
(() => {
  if (!('serviceWorker' in navigator) || !window.caches || !window.performance) return;
  const keep = () =>
    navigator.serviceWorker
      .register('/sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        const assets = performance.getEntriesByType('resource').map((entry) => entry.name);
        registration.active.postMessage({ type: 'keep', page: location.pathname, assets });
      })
      .catch(() => {});
  const later = () =>
    window.requestIdleCallback ? requestIdleCallback(keep, { timeout: 4000 }) : setTimeout(keep, 1000);
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
})();

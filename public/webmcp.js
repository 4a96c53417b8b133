// WebMCP: where the browser lets a page offer tools to an agent (document.modelContext, or
// navigator.modelContext in earlier drafts), load the site's tools (/webmcp-tools.js).
// Anywhere else this is all that runs, and nothing more is downloaded.
(() => {
  const context = document.modelContext || navigator.modelContext;
  if (context && typeof context.registerTool === 'function')
    import('/webmcp-tools.js').then((tools) => tools.register(context));
})();

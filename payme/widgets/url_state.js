// The page side of payme.widgets.url_state.UrlState: keeps the address bar and the kernel's
// state in step with the browser's History API (no reload per change).
//
// kernel -> page: a new `query` becomes the address's query string, as a new history entry
//                 when `push` is true, else in place of the current one.
// page -> kernel: Back/Forward (popstate) send the address's query string back as `query`;
//                 the kernel then shows that state.
function currentQuery() {
  return window.location.search.replace(/^\?/, "");
}

function write(model, push) {
  const query = model.get("query");
  if (query === currentQuery()) {
    return;
  }
  const url = window.location.pathname + (query ? "?" + query : "") + window.location.hash;
  if (push) {
    window.history.pushState({ payme: query }, "", url);
  } else {
    window.history.replaceState({ payme: query }, "", url);
  }
}

function render({ model, el }) {
  el.hidden = true;
  const onChange = () => write(model, model.get("push"));
  const onPop = () => {
    model.set("query", currentQuery());
    model.save_changes();
  };
  model.on("change:query", onChange);
  window.addEventListener("popstate", onPop);
  // The state the kernel settled on (a link's query, checked and tidied) names this entry.
  write(model, false);
  return () => {
    model.off("change:query", onChange);
    window.removeEventListener("popstate", onPop);
  };
}

export default { render };

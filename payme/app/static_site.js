// The page side of payme.app.static_site.Shell (the static site of `make static`): every
// page of the app is one page that runs Python once; this sends the kernel the address
// (the page's name from NAME.html, then its query string) when the page opens, when a link
// to another page of the site is followed (the address changes without loading anything)
// and on Back/Forward; the kernel then shows that page.
function pageOf(path) {
  const match = /([\w-]+)\.html$/.exec(path);
  return match ? match[1] : "index";
}

function folderOf(path) {
  return path.replace(/[^/]*$/, "");
}

function render({ model, el }) {
  el.hidden = true;
  // kind: "open" (the page loaded), "link" (a link of the site followed) or "back" (Back
  // or Forward: within a page its own address widget restores the state).
  const send = (kind) => {
    model.send({ kind, address: pageOf(location.pathname) + location.search });
  };
  const onPop = () => send("back");
  const onClick = (event) => {
    const link = event.target.closest ? event.target.closest("a[href]") : null;
    if (
      !link ||
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      (link.target && link.target !== "_self") ||
      link.hasAttribute("download")
    ) {
      return;
    }
    const url = new URL(link.href, location.href);
    if (
      url.origin !== location.origin ||
      folderOf(url.pathname) !== folderOf(location.pathname) ||
      !/\.html$/.test(url.pathname)
    ) {
      return;
    }
    event.preventDefault();
    if (url.pathname + url.search !== location.pathname + location.search) {
      history.pushState({ paymePage: pageOf(url.pathname) }, "", url.pathname + url.search);
    }
    send("link");
    window.scrollTo(0, 0);
  };
  const mark = () => {
    const page = model.get("page");
    for (const link of document.querySelectorAll(".payme-site-header a[data-payme-page]")) {
      if (link.dataset.paymePage === page) {
        link.setAttribute("aria-current", "page");
      } else {
        link.removeAttribute("aria-current");
      }
    }
    document.title = model.get("title");
    document.body.dataset.paymePage = page;
  };
  document.addEventListener("click", onClick);
  window.addEventListener("popstate", onPop);
  model.on("change:page", mark);
  model.on("change:title", mark);
  mark();
  send("open");
  return () => {
    document.removeEventListener("click", onClick);
    window.removeEventListener("popstate", onPop);
    model.off("change:page", mark);
    model.off("change:title", mark);
  };
}

export default { render };

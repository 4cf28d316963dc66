// The page side of payme.widgets.browser_store.BrowserStore: one JSON record kept in the
// browser's localStorage under `key`, so a page remembers the visitor's progress between
// visits (nothing leaves the browser).
//
// page -> kernel: on render, the stored record (or "") is sent once as `loaded`.
// kernel -> page: each new `saved` record is written back, merged with what is stored:
//                 lists are joined (a step answered right in another tab stays right),
//                 other values are replaced.
function read(key) {
  try {
    return window.localStorage.getItem(key) || "";
  } catch (err) {
    return ""; // storage blocked (private mode, a sandboxed frame): the page works without it
  }
}

function merged(old, update) {
  const out = Object.assign({}, old);
  for (const [name, value] of Object.entries(update)) {
    if (Array.isArray(value) && Array.isArray(old[name])) {
      out[name] = Array.from(new Set([...old[name], ...value]));
    } else {
      out[name] = value;
    }
  }
  return out;
}

function write(key, text) {
  if (!text) {
    return;
  }
  let old = {};
  try {
    old = JSON.parse(read(key) || "{}");
  } catch (err) {
    old = {};
  }
  try {
    window.localStorage.setItem(key, JSON.stringify(merged(old, JSON.parse(text))));
  } catch (err) {
    // full or blocked storage: progress is kept for this visit only
  }
}

function render({ model, el }) {
  el.hidden = true;
  const key = model.get("key");
  const onSave = () => write(key, model.get("saved"));
  model.on("change:saved", onSave);
  model.set("loaded", read(key) || "{}");
  model.save_changes();
  return () => model.off("change:saved", onSave);
}

export default { render };

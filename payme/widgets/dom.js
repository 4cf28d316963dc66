// What the widgets' scripts share (payme/widgets/scripts.py puts it before each of them):
// `el`, the one way they build an element.

// el("button", {class: "pm-x", text: "Go", onclick: f}, child, ...): an element with its
// attributes ("class", "text" for its text, "html" for markup the Python side made, "on..."
// for a listener; null, undefined and false leave an attribute out) and its children.
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

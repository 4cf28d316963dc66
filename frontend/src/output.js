// Cell outputs and the Output widget, without JupyterLab's rendermime: the app's pages show
// widgets and HTML, and a page's error or printout as plain text.
import * as outputBase from "@jupyter-widgets/output";

export const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";
let pageKernel = null;

export function setKernel(kernel) {
  pageKernel = kernel;
}

// HTML as a trusted output shows it: its scripts run (the page's notebook wrote it).
function html(node, markup) {
  node.innerHTML = markup;
  for (const old of node.querySelectorAll("script")) {
    const script = document.createElement("script");
    for (const attr of old.attributes) {
      script.setAttribute(attr.name, attr.value);
    }
    script.textContent = old.textContent;
    old.replaceWith(script);
  }
}

function text(node, value, mime) {
  const pre = document.createElement("pre");
  pre.textContent = Array.isArray(value) ? value.join("") : value;
  node.classList.add("jp-RenderedText");
  node.dataset.mimeType = mime;
  node.appendChild(pre);
}

function joined(value) {
  return Array.isArray(value) ? value.join("") : value;
}

// Draw one nbformat output into ``node`` (an empty element in the page).
export async function renderOutput(out, node, manager) {
  if (out.output_type === "stream") {
    text(node, out.text, `application/vnd.jupyter.${out.name === "stderr" ? "stderr" : "stdout"}`);
    return;
  }
  if (out.output_type === "error") {
    // A traceback, when the server shows them, without its terminal colours.
    const traceback = (out.traceback || []).join("\n").replace(/\x1b\[[0-9;]*m/g, "");
    text(node, traceback || `${out.ename}: ${out.evalue}`, "application/vnd.jupyter.stderr");
    return;
  }
  const data = out.data || {};
  if (data[WIDGET_VIEW]) {
    try {
      await manager.show(data[WIDGET_VIEW].model_id, node);
    } catch (error) {
      console.error("A control of this page could not be shown:", error);
      node.textContent = "This part of the page could not be shown.";
    }
    return;
  }
  if (data["text/html"] !== undefined) {
    node.classList.add("jp-RenderedHTMLCommon", "jp-RenderedHTML");
    node.dataset.mimeType = "text/html";
    html(node, joined(data["text/html"]));
    return;
  }
  if (data["image/svg+xml"] !== undefined) {
    node.classList.add("jp-RenderedSVG");
    node.dataset.mimeType = "image/svg+xml";
    const img = document.createElement("img");
    img.src = `data:image/svg+xml,${encodeURIComponent(joined(data["image/svg+xml"]))}`;
    node.appendChild(img);
    return;
  }
  for (const mime of ["image/png", "image/jpeg", "image/gif"]) {
    if (data[mime] !== undefined) {
      node.classList.add("jp-RenderedImage");
      node.dataset.mimeType = mime;
      const img = document.createElement("img");
      img.src = `data:${mime};base64,${joined(data[mime]).replace(/\n/g, "")}`;
      node.appendChild(img);
      return;
    }
  }
  if (data["text/plain"] !== undefined) {
    text(node, data["text/plain"], "text/plain");
  }
}

// The Output widget: what the kernel prints or displays while the widget's ``msg_id`` is set
// (``with out:`` in a callback) is captured from the kernel's messages into ``outputs``.
export class OutputModel extends outputBase.OutputModel {
  defaults() {
    return { ...super.defaults(), msg_id: "", outputs: [] };
  }

  initialize(attributes, options) {
    super.initialize(attributes, options);
    this._hook = null;
    this._clearNext = false;
    this.on("change:msg_id", this._capture, this);
    this._capture();
  }

  _capture() {
    if (this._hook && pageKernel) {
      pageKernel.removeMessageHook(this._hook.id, this._hook.fn);
    }
    this._hook = null;
    const msgId = this.get("msg_id");
    if (!msgId || !pageKernel) {
      return;
    }
    const fn = (msg) => {
      const type = msg.header.msg_type;
      if (type === "clear_output") {
        if (msg.content.wait) {
          this._clearNext = true;
        } else {
          this._set([]);
        }
        return false;
      }
      if (!["stream", "display_data", "execute_result", "error"].includes(type)) {
        return true;
      }
      const base = this._clearNext ? [] : this.get("outputs");
      this._clearNext = false;
      this._set([...base, { output_type: type, ...msg.content }]);
      return false;
    };
    this._hook = { id: msgId, fn };
    pageKernel.registerMessageHook(msgId, fn);
  }

  _set(outputs) {
    this.set("outputs", outputs);
    this.save_changes();
  }
}

export class OutputView extends outputBase.OutputView {
  render() {
    super.render();
    this.el.classList.add("jupyter-widgets-output-area", "widget-output");
    this.listenTo(this.model, "change:outputs", this.update);
    this.update();
  }

  update() {
    this.el.textContent = "";
    for (const out of this.model.get("outputs") || []) {
      const node = document.createElement("div");
      node.className = "jp-OutputArea-output";
      this.el.appendChild(node);
      renderOutput(out, node, this.model.widget_manager);
    }
  }
}

// payme's light front end for the app's notebook pages (served by Voilà).
//
// It does what Voilà's own front end (voila.js: JupyterLab's application, ~10 MB of scripts)
// does for these pages, and nothing more: it connects to the kernel Voilà started for the
// page, fetches every widget's state over the widget manager's control comm, draws each cell
// output the page carries (a widget, or HTML) where Voilà's template put it, and asks the
// server to shut the kernel down when the tab closes.  Built by `make lite-js` (build.mjs).
import * as base from "@jupyter-widgets/base";
import { ManagerBase } from "@jupyter-widgets/base-manager";
import * as controls from "@jupyter-widgets/controls";
import { KernelConnection } from "@jupyterlab/services/lib/kernel/default";
import { ServerConnection } from "@jupyterlab/services/lib/serverconnection";
import { MessageLoop } from "@lumino/messaging";
import { Widget } from "@lumino/widgets";
import anywidget from "anywidget";
import * as output from "./output";

import "@jupyter-widgets/controls/css/lumino.css";
import "@jupyter-widgets/controls/css/widgets-base.css";
import "./fontawesome.css";
import "./page.css";

const { WIDGET_VIEW } = output;
const OUTPUT = 'script[type="application/vnd.voila.cell-output+json"]';
const modules = {
  "@jupyter-widgets/base": base,
  "@jupyter-widgets/controls": controls,
  "@jupyter-widgets/output": output,
  anywidget: anywidget(base),
};

// The widget manager: ipywidgets' own base manager, with comms over the page's kernel.
class PageManager extends ManagerBase {
  constructor(kernel) {
    super();
    this.kernel = kernel;
    this.views = new Set();
    kernel.registerCommTarget(this.comm_target_name, (comm, msg) =>
      this.handle_comm_open(new base.shims.services.Comm(comm), msg),
    );
    window.addEventListener("resize", () => {
      for (const view of this.views) {
        MessageLoop.postMessage(view.luminoWidget, Widget.ResizeMessage.UnknownSize);
      }
    });
  }

  async loadClass(className, moduleName, moduleVersion) {
    const module = modules[moduleName];
    if (!module || !module[className]) {
      throw new Error(`Class ${className} not found in module ${moduleName}@${moduleVersion}`);
    }
    return module[className];
  }

  async _create_comm(targetName, modelId, data, metadata, buffers) {
    const comm = this.kernel.createComm(targetName, modelId);
    if (data || metadata) {
      comm.open(data, metadata, buffers);
    }
    return new base.shims.services.Comm(comm);
  }

  async _get_comm_info() {
    const reply = await this.kernel.requestCommInfo({ target_name: this.comm_target_name });
    return reply.content.status === "ok" ? reply.content.comms : {};
  }

  async show(modelId, node) {
    const model = await this.get_model(modelId);
    const view = await this.create_view(model);
    Widget.attach(view.luminoWidget, node);
    this.views.add(view);
    view.once("remove", () => this.views.delete(view));
  }
}

// The page's cell outputs: each drawn in place of the script tag that carries it.
function outputs() {
  return [...document.querySelectorAll(OUTPUT)].map((script) => {
    const out = JSON.parse(script.textContent);
    const node = document.createElement("div");
    node.className = "lm-Widget jp-OutputArea-output";
    script.replaceWith(node);
    return { out, node };
  });
}

function showsWidget(out) {
  return Boolean(out.data && out.data[WIDGET_VIEW]);
}

function config() {
  const element = document.getElementById("jupyter-config-data");
  return JSON.parse(element.textContent);
}

async function start() {
  // What needs no kernel (HTML, text) shows at once; the widgets once their state is here.
  const found = outputs();
  for (const { out, node } of found.filter(({ out }) => !showsWidget(out))) {
    output.renderOutput(out, node, null);
  }
  const widgets = found.filter(({ out }) => showsWidget(out));
  const page = config();
  const baseUrl = page.baseUrl || "/";
  const kernelId = page.kernelId;
  if (!kernelId) {
    return; // a page without a kernel (its render failed before one started)
  }
  const serverSettings = ServerConnection.makeSettings({ baseUrl: new URL(baseUrl, location.href).href });
  const kernel = new KernelConnection({
    model: { id: kernelId, name: "python3" },
    serverSettings,
    // No subshell per comm target (the server lets a page send only widget messages).
    commsOverSubshells: "disabled",
  });
  window.addEventListener("beforeunload", () => {
    const form = new FormData();
    const xsrf = document.cookie.match("\\b_xsrf=([^;]*)\\b");
    form.append("_xsrf", (xsrf && xsrf[1]) || "");
    navigator.sendBeacon(`${baseUrl}voila/api/shutdown/${kernel.id}`, form);
    kernel.dispose();
  });
  const manager = new PageManager(kernel);
  output.setKernel(kernel);
  await manager._loadFromKernel();
  await Promise.all(widgets.map(({ out, node }) => output.renderOutput(out, node, manager)));
}

function whenParsed() {
  if (document.readyState === "loading") {
    return new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
  }
  return Promise.resolve();
}

whenParsed()
  .then(() => {
    const cells = document.getElementById("rendered_cells");
    if (cells) {
      cells.style.removeProperty("display"); // the template hid the cells until now
    }
    return start();
  })
  .catch((error) => console.error("The page could not connect to its game:", error));

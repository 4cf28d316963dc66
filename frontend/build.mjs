// Builds the light front end: `npm ci && node build.mjs` (or `make lite-js` at the top).
// Output: ../payme/app/static/lite/ (payme-lite.js, payme-lite.css and the icon font).
import { readFile } from "node:fs/promises";
import * as esbuild from "esbuild";

// anywidget's npm build is an AMD module (`define([...], factory)`); its factory, taking
// @jupyter-widgets/base, is what the bundle needs.
const anywidgetAsEsm = {
  name: "anywidget-esm",
  setup(build) {
    build.onLoad({ filter: /anywidget[\\/]dist[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const amd = 'define(["@jupyter-widgets/base"], widget_default);';
      if (!source.includes(amd)) {
        throw new Error(`anywidget's build changed: no "${amd}" in ${args.path}`);
      }
      return { contents: source.replace(amd, "export default widget_default;"), loader: "js" };
    });
  },
};

await esbuild.build({
  entryPoints: { "payme-lite": "src/index.js" },
  bundle: true,
  minify: true,
  format: "esm",
  target: ["chrome110", "firefox115", "safari16"],
  outdir: "../payme/app/static/lite",
  loader: { ".woff2": "file" },
  assetNames: "[name]",
  legalComments: "linked",
  define: { "process.env.NODE_ENV": '"production"' },
  plugins: [anywidgetAsEsm],
  logLevel: "info",
});

// The gpucloud provider plugin as installed with `pulumi plugin install resource gpucloud <version>
// --file <tarball>` (the tarball `npx gpucloud-plugin-tarball` makes). A plugin installed that way
// cannot carry the package's dependencies, so it runs the package the program has installed: the
// directory GPUCLOUD_PACKAGE_DIR names, else pulumi-gpucloud as resolved from the directory the
// engine starts plugins in, the project's. Plain enough for an old Node.js: the package checks the version.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

function fail(message) {
  process.stderr.write(`pulumi-gpucloud provider plugin: ${message}\n`);
  process.exit(1);
}

let root = process.env.GPUCLOUD_PACKAGE_DIR;
if (!root) {
  try {
    root = path.dirname(require.resolve("pulumi-gpucloud/package.json", { paths: [process.cwd()] }));
  } catch {
    fail(
      `the installed plugin runs the pulumi-gpucloud package of the project, but none is installed under ${process.cwd()}. ` +
        "Run `npm install pulumi-gpucloud` in the project directory, or set GPUCLOUD_PACKAGE_DIR to the package's directory.",
    );
  }
}
let installed;
try {
  installed = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
} catch (error) {
  fail(`cannot read the pulumi-gpucloud package at ${root} (${error.message}); check GPUCLOUD_PACKAGE_DIR, or reinstall the package.`);
}
const plugin = fs.readFileSync(path.join(__dirname, "version"), "utf8").trim();
if (installed !== plugin) {
  process.stderr.write(
    `warning: this gpucloud plugin was installed as version ${plugin}, but runs pulumi-gpucloud ${installed} from ${root}; ` +
      `install the plugin of that version (npx gpucloud-plugin-tarball, then pulumi plugin install resource gpucloud ${installed} --file <tarball>)\n`,
  );
}
const main = path.join(root, "dist", "provider", "plugin", "main.js");
if (!fs.existsSync(main)) {
  fail(
    `pulumi-gpucloud ${installed} at ${root} has no provider plugin (${main}); install a version of pulumi-gpucloud that ships it, the one this plugin was made from (${plugin}).`,
  );
}
require(main).start();

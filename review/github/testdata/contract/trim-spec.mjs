// trim-spec.mjs cuts GitHub's OpenAPI description down to the paths docreview
// calls, so that Prism loads it in about 2 s instead of about 15 s and CI
// does not need the 385 MB @octokit/openapi package.
//
// usage: node trim-spec.mjs <in.json> <out.json> <path> [<path>...]
//
// What is kept:
//   - openapi, info, servers and externalDocs, unchanged;
//   - each named path item, whole (every method it has), in sorted order;
//   - the transitive closure of the "#/components/<kind>/<name>" $refs
//     reachable from those path items, sorted by kind then name;
//   - "x-docreview-trimmed": where the file came from (package version from
//     info.version, SHA-256 of the input file) and the paths kept.
// Everything else (tags, x-webhooks, the other paths and components) is
// dropped. A named path that is missing, or a $ref that is not of the form
// "#/components/<kind>/<name>" or does not resolve, is an error: the output
// is then not written.
//
// The output is JSON.stringify(..., null, 2) plus a newline; the same input
// and arguments give the same bytes (see regen.sh).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

const [input, output, ...keep] = process.argv.slice(2);
if (!input || !output || keep.length === 0) {
  console.error("usage: node trim-spec.mjs <in.json> <out.json> <path> [<path>...]");
  process.exit(2);
}

const raw = readFileSync(input);
const spec = JSON.parse(raw.toString("utf8"));

const resolve = (ref) => {
  const parts = ref.split("/");
  if (parts.length !== 4 || parts[0] !== "#" || parts[1] !== "components") {
    throw new Error(`unsupported $ref: ${ref}`);
  }
  const [, , kind, name] = parts;
  const target = spec.components?.[kind]?.[name];
  if (target === undefined) throw new Error(`unresolved $ref: ${ref}`);
  return { kind, name, target };
};

const paths = {};
for (const p of [...new Set(keep)].sort()) {
  if (!spec.paths?.[p]) throw new Error(`no such path in ${input}: ${p}`);
  paths[p] = spec.paths[p];
}

const need = new Set();
const queue = [paths];
while (queue.length) {
  const node = queue.pop();
  if (node === null || typeof node !== "object") continue;
  for (const [k, v] of Object.entries(node)) {
    if (k === "$ref" && typeof v === "string") {
      if (!need.has(v)) {
        need.add(v);
        queue.push(resolve(v).target);
      }
    } else {
      queue.push(v);
    }
  }
}

const components = {};
for (const ref of [...need].sort()) {
  const { kind, name, target } = resolve(ref);
  (components[kind] ??= {})[name] = target;
}
const sortedComponents = {};
for (const kind of Object.keys(components).sort()) sortedComponents[kind] = components[kind];

const out = {
  openapi: spec.openapi,
  info: spec.info,
  servers: spec.servers,
  externalDocs: spec.externalDocs,
  "x-docreview-trimmed": {
    source: `@octokit/openapi@${spec.info?.version} generated/api.github.com.json`,
    sha256: createHash("sha256").update(raw).digest("hex"),
    paths: Object.keys(paths),
  },
  paths,
  components: sortedComponents,
};
writeFileSync(output, JSON.stringify(out, null, 2) + "\n");
console.error(`kept ${Object.keys(paths).length} paths, ${need.size} components`);

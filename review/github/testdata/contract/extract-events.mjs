// extract-events.mjs writes real webhook payloads from @octokit/webhooks-examples
// (the version pinned in package-lock.json, 7.6.1) as test data for the
// action package and the GitHub App.
//
// usage: node extract-events.mjs [outdir]
//   outdir defaults to action/testdata/events at the repository root.
//
// Each file is exactly JSON.stringify(example) of one element of
// api.github.com/index.json: compact, key order as in the package, no
// trailing newline. Do not reformat the files; githubtest's
// TestEventPayloadsMatchPackage re-runs this script and compares bytes.
//
// Selection: for each row of EVENTS, the FIRST example (in package order) of
// that event whose action matches and, when `installation` is true, that has
// an `installation` key; when `installation` is false, one that has none.
// A row with no match is an error and nothing is written.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outdir = resolve(process.argv[2] ?? join(here, "../../../../action/testdata/events"));

// file, event name, action, installation key wanted.
const EVENTS = [
  // What a workflow's GITHUB_EVENT_PATH holds: no installation.
  ["pull_request.opened.json", "pull_request", "opened", false],
  // What a GitHub App receives: installation {id: 1, node_id}.
  ["pull_request.opened.installation.json", "pull_request", "opened", true],
  ["pull_request.synchronize.json", "pull_request", "synchronize", true],
  ["pull_request.reopened.json", "pull_request", "reopened", true],
  // NOTE: 7.6.1 has no issue_comment example on a pull request (none has
  // issue.pull_request); this one is on issue #1.
  ["issue_comment.created.json", "issue_comment", "created", false],
  ["pull_request_review_comment.created.json", "pull_request_review_comment", "created", false],
  ["installation.created.json", "installation", "created", true],
  ["installation_repositories.added.json", "installation_repositories", "added", true],
  // What the fork pattern's publishing job receives (docreview publish).
  ["workflow_run.completed.json", "workflow_run", "completed", false],
];

const require = createRequire(join(here, "package.json"));
const file = require.resolve("@octokit/webhooks-examples/api.github.com/index.json");
const version = JSON.parse(
  readFileSync(require.resolve("@octokit/webhooks-examples/package.json"), "utf8"),
).version;
const all = JSON.parse(readFileSync(file, "utf8"));

const out = [];
for (const [name, event, action, installation] of EVENTS) {
  const entry = all.find((e) => e.name === event);
  if (!entry) throw new Error(`@octokit/webhooks-examples ${version}: no event ${event}`);
  const ex = entry.examples.find(
    (x) => x.action === action && Object.hasOwn(x, "installation") === installation,
  );
  if (!ex) {
    throw new Error(
      `@octokit/webhooks-examples ${version}: no ${event}.${action} example ${installation ? "with" : "without"} installation`,
    );
  }
  out.push([name, JSON.stringify(ex)]);
}
mkdirSync(outdir, { recursive: true });
for (const [name, text] of out) writeFileSync(join(outdir, name), text);
console.error(`@octokit/webhooks-examples ${version}: wrote ${out.length} payloads to ${outdir}`);

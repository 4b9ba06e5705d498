// Package app is the [webhook.Runner] of the docreview GitHub App: it
// authenticates as an installation ([NewAppTokens], with ghinstallation),
// keeps a bare mirror of each repository it reviews ([Mirrors]), fetches
// into it only the commits a pull request needs, runs the review engine on
// them and publishes the report through review/github, the publisher the
// Action uses ([Runner]).
//
// The installation token reaches git only through the environment of each
// git command (GIT_CONFIG_COUNT, an http.extraHeader scoped to the
// repository's host): it is never an argument, part of a remote URL, in a
// repository's configuration, on disk or in a log line, and it is redacted
// from git's error text.
//
// The review engine (review.Engine, through retrieval/gitrepo) refuses a
// bare repository: it needs a working tree to locate the repository (git
// rev-parse --show-toplevel). The Runner therefore gives it a linked
// worktree of the mirror made with --no-checkout for each run, in which
// only the repository's configuration (.docreview.yml and .docreview/) is
// checked out; every file the engine reviews is read from the commits.
package app

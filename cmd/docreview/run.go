package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/docreview/docreview/review"
)

// Exit codes, decided in exitCode alone.
const (
	exitOK       = 0
	exitFindings = 1 // findings at or above --fail-on
	exitError    = 2 // usage or runtime error
)

// errFindings reports that the review found what --fail-on forbids.
var errFindings = errors.New("findings at or above the fail-on level")

const usage = `docreview finds documentation that drifted from the code.

Usage:
  docreview review [flags]   review the documentation a git diff touches
  docreview action [flags]   review a pull request in GitHub Actions and publish the findings
  docreview publish [flags]  publish a report another workflow job made (fork pull requests)
  docreview serve [flags]    run the GitHub App: a webhook server with a durable review queue
  docreview index [flags]    build or update the evidence index of a repository
  docreview query [flags] TEXT  search the evidence index
  docreview mcp [flags]      serve the index to coding agents over MCP (stdio)
  docreview completeness [flags] [packages]  score how much of each symbol's contract its doc states
  docreview bench retrieval  measure the evidence layer
  docreview bench quality    measure review quality on real modules
  docreview bench warm       measure cold and warm start: query, MCP, review
  docreview bench webhook    measure the webhook server under a burst of deliveries
  docreview version          print the version
  docreview help             show this help

Run 'docreview review -h' for the review flags.
`

// run dispatches a subcommand and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitError
	}
	if args[0] == "help" && len(args) > 1 {
		if !knownCommands[args[1]] {
			fmt.Fprint(stderr, usage)
			return exitCode(&review.UsageError{Msg: fmt.Sprintf("help %s: unknown command %q (known: %s)", args[1], args[1], strings.Join(slices.Sorted(maps.Keys(knownCommands)), ", "))}, stderr)
		}
		args = append([]string{args[1]}, append(args[2:], "--help")...)
	}
	// Help that is asked for is the output: stdout, exit 0. A usage error
	// prints the usage to stderr and exits 2.
	if helpAsked(args[1:]) {
		stderr = stdout
	}
	var err error
	switch args[0] {
	case "review":
		err = runReview(ctx, args[1:], stdout, stderr, getenv)
	case "action":
		err = runAction(ctx, args[1:], stdout, stderr, getenv)
	case "publish":
		err = runPublish(ctx, args[1:], stdout, stderr, getenv)
	case "serve":
		err = runServe(ctx, args[1:], stdout, stderr, getenv)
	case "index":
		err = runIndex(ctx, args[1:], stdout, stderr, getenv)
	case "query":
		err = runQuery(ctx, args[1:], stdout, stderr, getenv)
	case "mcp":
		err = runMCP(ctx, args[1:], stdin, stdout, stderr, getenv)
	case "completeness":
		err = runCompleteness(ctx, args[1:], stdout, stderr, getenv)
	case "bench":
		err = runBench(ctx, args[1:], stdout, stderr, getenv)
	case "version", "--version":
		fmt.Fprintln(stdout, "docreview", version)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		err = &review.UsageError{Msg: fmt.Sprintf("unknown command %q", args[0])}
		fmt.Fprint(stderr, usage)
	}
	return exitCode(err, stderr)
}

// knownCommands are the subcommands 'docreview help' describes.
var knownCommands = map[string]bool{
	"review": true, "action": true, "publish": true, "serve": true, "index": true, "query": true,
	"mcp": true, "completeness": true, "bench": true, "version": true, "help": true,
}

// helpAsked reports whether a subcommand's arguments ask for its help
// (-h, -help or --help before any "--").
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// version is the release version, set with -ldflags "-X main.version=...".
var version = "devel"

// exitCode maps an error to the exit code and prints it.
func exitCode(err error, stderr io.Writer) int {
	var usageErr *review.UsageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errFindings):
		return exitFindings
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &usageErr):
		fmt.Fprintln(stderr, "docreview:", err)
		return exitError
	default:
		fmt.Fprintln(stderr, "docreview:", err)
		return exitError
	}
}

// parseFlags parses args into fs: flag.ErrHelp passes through (exit 0
// after the usage text), any other error becomes a *review.UsageError.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &review.UsageError{Msg: err.Error()}
	}
	return nil
}

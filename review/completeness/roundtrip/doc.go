// Package roundtrip measures how much of a Go file's behaviour its
// documentation states: a language model rewrites the file from the
// package's exported API and the file's doc comments alone, never the
// code, and the package's own tests run against the rewrite in a
// temporary copy of the module. Fidelity is the fraction of the tests that
// pass with the original file that still pass with the rewrite; each test
// that fails points at a fact the documentation does not state (a default,
// an error condition, an exact literal).
//
// Usage:
//
//	res, err := roundtrip.Run(ctx, roundtrip.Options{
//		Dir:      "review/judge",
//		Endpoint: roundtrip.Endpoint{Model: "gpt-4.1-mini", APIKey: key},
//	})
//	if err != nil { ... }
//	fmt.Printf("fidelity %.2f, failed %v\n", res.Fidelity, res.Failed)
//
// The model is an OpenAI-compatible chat completions endpoint, configured
// as the LLM judge's is (review/judge): nothing is read from the
// environment but the go command's own, retries are counted and bounded.
// The regenerated code is untrusted: it is only compiled and run in the
// temporary copy, with a timeout, with downloads switched off
// (GOPROXY=off, GOFLAGS=-mod=readonly, GOTOOLCHAIN=local, GOWORK=off), and
// the copy is removed afterwards. It is not a sandbox: the tests run with
// the caller's permissions, as `go test` always does.
//
// [Coverage] asks the model which of a symbol's listed facts its doc
// comment states, for the judge-read coverage of package completeness.
package roundtrip

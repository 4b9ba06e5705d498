// Command docreview reviews documentation changes for drift from the code.
// See the README for its subcommands and flags.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfile := startProfile(os.Getenv("DOCREVIEW_CPUPROFILE"))
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stopProfile()
	stop()
	os.Exit(code)
}

// startProfile writes a CPU profile of the whole process to path (the
// DOCREVIEW_CPUPROFILE variable, for measuring docreview itself) until the
// returned function is called; "" profiles nothing.
func startProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "docreview: cpu profile: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "docreview: cpu profile %s: %v\n", path, err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "docreview: cpu profile %s: %v\n", path, err)
		}
	}
}

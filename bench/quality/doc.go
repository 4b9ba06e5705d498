// Package quality is docreview's public quality benchmark: real Go modules
// pinned at exact versions (modules.json, fetched through the Go module
// proxy into the module cache), a seeded mutation generator that turns each
// into drift pull requests of known category and location, clean edits that
// must stay quiet, and real consecutive-version diffs. [Run] reviews every
// case with the rules of package rules, once with full evidence and once
// keeping only evidence from the claim's own file, and returns a [Report]
// with recall per category, false-positive rates and precision.
//
// Usage:
//
//	mods, _ := quality.DefaultModules()
//	rep, err := quality.Run(ctx, quality.Options{Modules: mods, PerCategory: 3})
//	if err == nil {
//		_ = rep.WriteTable(os.Stdout)
//	}
package quality

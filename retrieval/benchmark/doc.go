// Package benchmark measures docreview's evidence layer (package
// retrieval): how fast it indexes and answers over a large real tree (the
// Go standard library's sources), and how well it finds the evidence that
// decides a documentation claim, per channel and fused.
//
// Speed, over $(go env GOROOT)/src, with ripgrep side by side:
//
//	rep, err := benchmark.Run(ctx, benchmark.Options{
//		GOROOT: goroot, Dir: workDir, Ripgrep: rgPath, Quality: true,
//	})
//	...
//	err = rep.WriteTable(os.Stdout)
//
// Quality alone, over the labelled set of [Pairs] (claims about standard
// library packages and the bundled inventory example, each with the
// evidence that decides it):
//
//	q, err := benchmark.EvaluateQuality(ctx, benchmark.QualityOptions{GOROOT: goroot, Dir: workDir})
//	fused, _ := q.Channel(benchmark.Fused)
//	fmt.Println(fused.Recall, fused.MRR)
//
// It imports nothing of docreview but retrieval. `docreview bench
// retrieval` prints its table; `go test -bench . ./retrieval/benchmark`
// runs the same measurements as Go benchmarks.
package benchmark

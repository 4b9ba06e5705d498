// Package retrieval is docreview's codebase knowledge layer: chunks of the
// repository at a commit in a bleve index with BM25 scoring, and the Go
// symbol table built with go/parser and go/types. It imports nothing else of
// docreview, so any agent can use it alone.
//
// The lexical index, kept on disk and reused while the commit is the same:
//
//	ix, err := retrieval.BuildIndex(ctx, headFS, files, retrieval.IndexOptions{Dir: cacheDir, Commit: sha})
//	...
//	defer ix.Close()
//	hits, err := ix.Search(ctx, retrieval.Query{Text: "Cache.Purge", Sources: []retrieval.Source{retrieval.SourceCode}})
//
// The symbol table, built once per commit, with the standard library's
// types read from (and added to) a cache directory shared by every run:
//
//	types := &retrieval.TypeCache{Dir: filepath.Join(cacheRoot, "types")}
//	syms, err := types.LoadSymbols(ctx, headFS, files, logger)
//	sym, ok := syms.Lookup("cache", "Cache.Purge") // as written in package cache's docs
//	if !ok && !syms.Resolves("cache", "Cache.Purge") {
//		fix, _ := syms.Suggest("cache", "Cache.Purge")
//	}
//	evidence := syms.Callees(sym, 2) // Why "callee of Cache.Purge"
//
// Code of one's own (a documentation code block) type-checks against the
// same packages through [Symbols.Importer]; [Symbols.Placeholder],
// [Symbols.UnknownMembers], [Symbols.SymbolAt] and [Package.Complete] say
// which of its mistakes are certain. The go-snippet rule's checker,
// package rules/gocheck, is built on them:
//
//	conf := &types.Config{Importer: syms.Importer(ctx), Error: func(err error) { ... }}
//	conf.Check("snippet", fset, files, info)
//
// The fused layer (lexical, structural and, when configured, dense channels
// combined by reciprocal rank fusion, k = 60):
//
//	r := &retrieval.Retriever{Index: ix, Symbols: syms, FS: headFS}
//	res, err := r.Search(ctx, retrieval.Request{Text: "deferred removal", Symbol: "Cache.Purge"})
//	// res[i].Ranks, res[i].Why ("callee of Cache.Purge"), res[i].Hops
//
// The dense channel (optional), with vectors kept beside the index:
//
//	e, err := retrieval.NewOpenAIEmbedder(retrieval.EmbedderOptions{APIKey: key, BaseURL: baseURL})
//	dense, err := retrieval.OpenDense(ctx, vectorDir, e, chunks, logger) // on error: run without it
//	hits, err := dense.Search(ctx, "how are expired entries removed", 10, nil)
//
// Dependencies' APIs at the versions in go.mod (opt-in), indexed beside the
// repository:
//
//	up, mods, err := retrieval.UpstreamChunks(ctx, headFS, retrieval.UpstreamOptions{Logger: logger})
//	ix, err := retrieval.BuildIndex(ctx, headFS, files, retrieval.IndexOptions{Dir: cacheDir, Commit: sha + "+upstream", Extra: up})
package retrieval

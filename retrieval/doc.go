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
// The symbol table, built once per commit:
//
//	syms, err := retrieval.LoadSymbols(ctx, headFS, files, logger)
//	sym, ok := syms.Lookup("cache", "Cache.Purge") // as written in package cache's docs
//	if !ok && !syms.Resolves("cache", "Cache.Purge") {
//		fix, _ := syms.Suggest("cache", "Cache.Purge")
//	}
//	evidence := syms.Callees(sym, 2) // Why "callee of Cache.Purge"
//	issues := syms.CheckSnippet(ctx, "cache", code, earlierBlocks)
package retrieval

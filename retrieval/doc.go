// Package retrieval is docreview's codebase knowledge layer: chunks of the
// repository at a commit in a bleve index with BM25 scoring, and the Go
// symbol table built with go/parser and go/types.
package retrieval

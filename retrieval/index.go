package retrieval

// Index is a bleve index of a repository's chunks at one commit.
type Index struct {
}

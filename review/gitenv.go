package review

import "github.com/docreview/docreview/retrieval/gitrepo"

// GitEnv is the environment for git commands run outside the engine (the
// Action's fetches, the App's mirrors): [gitrepo.Env], the one the engine's
// own git runs with, offered here so adapters that may import only review
// clean it the same way.
func GitEnv(environ []string, extra ...string) []string { return gitrepo.Env(environ, extra...) }

// Package diff parses git's unified diff output into the files and line
// ranges a pull request changes.
//
// [Parse] wraps github.com/bluekeyes/go-gitdiff and reduces each file to
// what docreview needs: its paths and [Status], whether it is binary, the
// new-side lines it adds ([File.Added]), the old-side lines it removes
// ([File.Deleted]) and its hunks.
//
// Usage:
//
//	files, err := diff.Parse(bytes.NewReader(raw)) // raw from gitrepo's Repo.Diff
//	if err != nil { ... }
//	for _, f := range files {
//		if f.Touches(claim.Line, claim.EndLine) {
//			// the diff adds or edits a line of the claim
//		}
//	}
package diff

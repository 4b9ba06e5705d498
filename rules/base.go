package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"

	"github.com/docreview/docreview/review"
)

// baseGo is a Go file of the base commit, parsed once per review for every
// rule and claim that reads it.
type baseGo struct {
	fset *token.FileSet
	file *ast.File
}

// baseSrcKey, baseGoKey and baseClaimsKey are the [review.Workspace.Shared]
// keys of a base file's bytes, its syntax tree and its doc comment claims.
type (
	baseSrcKey    struct{ path string }
	baseGoKey     struct{ path string }
	baseClaimsKey struct{ path string }
)

// baseSource returns the bytes of the file at path in the base commit,
// read once per review.
func baseSource(ws *review.Workspace, path string) ([]byte, error) {
	v, err := ws.Shared(baseSrcKey{path}, func() (any, error) {
		if ws.BaseFS == nil {
			return nil, fmt.Errorf("read %s at base: the review has no base", path)
		}
		src, err := fs.ReadFile(ws.BaseFS, path)
		if err != nil {
			return nil, fmt.Errorf("read %s at base: %w", path, err)
		}
		return src, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}

// parsedBase returns the Go file at path (slash, repository-relative) in
// the base commit; an error when the review has no base or the file is
// unreadable or too broken to yield a syntax tree (a partly broken file
// yields what parsed).
func parsedBase(ws *review.Workspace, path string) (*baseGo, error) {
	v, err := ws.Shared(baseGoKey{path}, func() (any, error) {
		src, err := baseSource(ws, path)
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if file == nil {
			return nil, fmt.Errorf("parse %s at base: %w", path, err)
		}
		return &baseGo{fset: fset, file: file}, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*baseGo), nil
}

// baseClaims returns the doc comment claims of the Go file at path in the
// base commit, extracted once per review.
func baseClaims(ws *review.Workspace, path string) ([]review.Claim, error) {
	v, err := ws.Shared(baseClaimsKey{path}, func() (any, error) {
		src, err := baseSource(ws, path)
		if err != nil {
			return nil, err
		}
		if ws.Docs == nil {
			return nil, fmt.Errorf("read claims of %s at base: the review has no doc reader", path)
		}
		return ws.Docs.FileClaims(path, src)
	})
	if err != nil {
		return nil, err
	}
	return v.([]review.Claim), nil
}

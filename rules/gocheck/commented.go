package gocheck

import (
	"regexp"
	"strings"
)

// commentedDeclRE matches a line that is only a comment holding a short
// variable declaration: "// cli := humacli.New(...)".
var commentedDeclRE = regexp.MustCompile(`^(\s*)//\s?(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*:=\s*\S.*)$`)

// snipCommentedDecls uncomments the lines of src that declare, in a
// comment, a variable the rest of the block uses without declaring it:
// the reader is told what cli is ("// cli := humacli.New(...)") and the
// code goes on with cli.Root(). It returns the new source and the
// 1-based lines it uncommented. A name declared anywhere else in the
// block or in prelude, or not used in its code, leaves the comment alone:
// "// client := foo.NewWithRetry(...)" below "client := foo.New()" is an
// alternative, not a declaration.
func snipCommentedDecls(src string, prelude []string) (string, map[int]bool) {
	if !strings.Contains(src, ":=") {
		return src, nil
	}
	lines := strings.Split(src, "\n")
	var code strings.Builder
	for _, l := range lines {
		if !commentedDeclRE.MatchString(l) {
			code.WriteString(stripLineComment(l))
			code.WriteByte('\n')
		}
	}
	body := code.String()
	before := strings.Join(prelude, "\n")
	var out map[int]bool
	for i, l := range lines {
		m := commentedDeclRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		ok := true
		for _, name := range strings.Split(m[3], ",") {
			name = strings.TrimSpace(name)
			if name == "_" || declaresName(body, name) || declaresName(before, name) || !usesName(body, name) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		lines[i] = m[1] + m[2]
		if out == nil {
			out = map[int]bool{}
		}
		out[i+1] = true
	}
	if out == nil {
		return src, nil
	}
	return strings.Join(lines, "\n"), out
}

// stripLineComment drops a // comment from a line of code, leaving
// string literals that hold "//" (URLs) alone when it can tell.
func stripLineComment(l string) string {
	i := strings.Index(l, "//")
	if i < 0 || strings.Count(l[:i], `"`)%2 == 1 || strings.Count(l[:i], "`")%2 == 1 {
		return l
	}
	return l[:i]
}

// declaresName reports whether code declares name: with :=, var,
// const, func or type, as a range variable, or as a parameter
// ("(cli *Cli)").
func declaresName(code, name string) bool {
	q := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`(?m)(?:^|[\s,(])` + q + `(?:\s*,\s*[A-Za-z_]\w*)*\s*:=|\b(?:var|const|func|type)\s+(?:\([^)]*\)\s*)?` + q + `\b|\bfor\s+(?:[A-Za-z_]\w*\s*,\s*)?` + q + `\s*(?:,|:=)|\b` + q + `\s+(?:\*|\[\]|map\[|chan\b)?[A-Za-z_][\w.]*\s*[,)]`)
	return re.MatchString(code)
}

// usesName reports whether code names name as an identifier.
func usesName(code, name string) bool {
	return regexp.MustCompile(`(?:^|[^\w."])` + regexp.QuoteMeta(name) + `\b`).MatchString(code)
}

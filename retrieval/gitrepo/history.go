package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Commit is one commit of the repository's history.
type Commit struct {
	SHA     string
	Date    string // committer date, YYYY-MM-DD
	Subject string
	// Added, for a commit [Repo.RemovedIn] returns, lists the
	// declarations of the same kind the commit added in its place: funcs
	// with as many parameters as the removed one, methods of the same
	// type ("Store.Hold"), or types. A single entry is most likely the
	// new name of a rename.
	Added []string
}

// Short returns the commit's abbreviated SHA (12 hex digits).
func (c Commit) Short() string {
	if len(c.SHA) > 12 {
		return c.SHA[:12]
	}
	return c.SHA
}

// removalCandidates bounds how many commits touching lines with a name
// RemovedIn inspects.
const removalCandidates = 10

// RemovedIn finds the most recent commit reachable from rev whose diff
// removes a Go declaration of name and adds none: a func, a method
// ("Type.Method"), a type, or a const, var or struct field written as
// "Name =" or "Name Type" at the start of a line. It looks through the
// commits git log -G selects (those adding or removing a line of a *.go
// file that contains name), newest first, at most ten of them. It reports
// false when none qualifies. The caller bounds the time with ctx: on a
// long history, git log -G reads every commit's diff.
func (r *Repo) RemovedIn(ctx context.Context, rev, name string) (Commit, bool, error) {
	typ, member, isMember := strings.Cut(name, ".")
	word := name
	if isMember {
		word = member
	}
	if word == "" || strings.ContainsAny(word, " \t\n") || strings.HasPrefix(rev, "-") {
		return Commit{}, false, fmt.Errorf("removed in: bad name %q or revision %q", name, rev)
	}
	decl := declPattern(typ, word, isMember)
	out, err := r.git(ctx, nil, nil, "log", "-G"+word, "--format=%H%x09%P%x09%cs%x09%s", "--no-color",
		fmt.Sprintf("-n%d", removalCandidates), rev, "--", "*.go")
	if err != nil {
		return Commit{}, false, fmt.Errorf("history of %s: %w", name, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "\t", 4)
		if len(parts) != 4 {
			continue
		}
		if parts[1] == "" {
			// A root commit (or a shallow clone's first) removes nothing,
			// and its diff is the whole tree: not worth reading.
			continue
		}
		c := Commit{SHA: parts[0], Date: parts[2], Subject: parts[3]}
		show, err := r.git(ctx, nil, nil, "show", "--format=", "--no-color", "--no-ext-diff", "--unified=0", c.SHA, "--", "*.go")
		if err != nil {
			return Commit{}, false, fmt.Errorf("history of %s: %w", name, err)
		}
		removed, added := 0, 0
		var gone string // the removed declaration line
		var plus, minus []string
		for line := range strings.SplitSeq(string(show), "\n") {
			switch {
			case strings.HasPrefix(line, "---"), strings.HasPrefix(line, "+++"):
			case strings.HasPrefix(line, "-"):
				minus = append(minus, line[1:])
				if decl.MatchString(line[1:]) {
					removed++
					gone = line[1:]
				}
			case strings.HasPrefix(line, "+"):
				plus = append(plus, line[1:])
				if decl.MatchString(line[1:]) {
					added++
				}
			}
		}
		if removed > 0 && added == 0 {
			c.Added = replacements(gone, typ, isMember, plus, minus)
			return c, true, nil
		}
	}
	return Commit{}, false, nil
}

var (
	funcLineRE   = regexp.MustCompile(`^\s*func\s+([\pL_][\pL\pN_]*)\s*(?:\[[^\]]*\])?\(([^)]*)\)`)
	methodLineRE = regexp.MustCompile(`^\s*func\s*\([^)]*?\b([\pL_][\pL\pN_]*)(?:\[[^\]]*\])?\)\s*([\pL_][\pL\pN_]*)\s*(?:\[[^\]]*\])?\(([^)]*)\)`)
	typeLineRE   = regexp.MustCompile(`^\s*type\s+([\pL_][\pL\pN_]*)\b`)
)

// replacements lists the declarations of gone's kind among the added
// lines that the removed lines do not also declare (code that only
// moved): methods of typ, funcs with as many parameters, or types.
func replacements(gone, typ string, member bool, plus, minus []string) []string {
	sig := func(line string) (kind, name string, params int, ok bool) {
		if m := methodLineRE.FindStringSubmatch(line); m != nil {
			return "method:" + m[1], m[1] + "." + m[2], countParams(m[3]), true
		}
		if m := funcLineRE.FindStringSubmatch(line); m != nil {
			return "func", m[1], countParams(m[2]), true
		}
		if m := typeLineRE.FindStringSubmatch(line); m != nil {
			return "type", m[1], 0, true
		}
		return "", "", 0, false
	}
	kind, _, params, ok := sig(gone)
	if !ok || member && kind != "method:"+typ {
		return nil
	}
	removed := map[string]bool{}
	for _, l := range minus {
		if _, name, _, ok := sig(l); ok {
			removed[name] = true
		}
	}
	var out []string
	for _, l := range plus {
		k, name, n, ok := sig(l)
		if ok && k == kind && n == params && !removed[name] {
			out = append(out, name)
		}
	}
	return out
}

// countParams counts the parameters of a parameter list's text: "" is
// none, "a, b int" two.
func countParams(list string) int {
	if strings.TrimSpace(list) == "" {
		return 0
	}
	return strings.Count(list, ",") + 1
}

// declPattern matches a line declaring word: for a member, a method of typ
// or a field; else a func, type, const or var, or a group member.
func declPattern(typ, word string, member bool) *regexp.Regexp {
	w := regexp.QuoteMeta(word)
	if member {
		t := regexp.QuoteMeta(typ)
		return regexp.MustCompile(`^\s*(func\s*\([^)]*\b` + t + `(\[[^\]]*\])?\)\s*` + w + `\s*[\[(]|` + w + `\s+[*\[\]\w.]+(\s|$|` + "`" + `))`)
	}
	return regexp.MustCompile(`^\s*(func\s+` + w + `\s*[\[(]|type\s+` + w + `\b|(const|var)\s+` + w + `\b|` + w + `(\s*,\s*\w+)*\s*(=|\s[*\[\]\w.]+\s*(=|$)))`)
}

// RemovalTimeout is how long a caller may reasonably give RemovedIn per
// name: enough for histories of some thousand commits.
const RemovalTimeout = 2 * time.Second

// Command genenglish writes the English nouns of the Go standard library's
// doc comments, one per line and sorted, for the wrong-parameter rule: a
// word that the standard library writes after a determiner ("the
// writer", "each name") at least -min times and that has at least -len
// letters is English, whatever parameter it may also name. It reads the
// comments of GOROOT/src, skipping tests, testdata, vendor, internal and
// cmd.
//
//	go run ./rules/internal/genenglish -out rules/english.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
)

var determinerRE = regexp.MustCompile(`(?i)\b(?:the|a|an|each|every|this|that|these|those|its|their|your|our|no|any|some|all|such|another|other)\s+([a-z]+)\b`)

func main() {
	out := flag.String("out", "", "file to write (default: standard output)")
	minCount := flag.Int("min", 3, "occurrences after a determiner a word needs")
	minLen := flag.Int("len", 4, "letters a word needs")
	flag.Parse()
	if err := run(*out, *minCount, *minLen); err != nil {
		fmt.Fprintln(os.Stderr, "genenglish:", err)
		os.Exit(1)
	}
}

func run(out string, minCount, minLen int) error {
	root := filepath.Join(build.Default.GOROOT, "src")
	counts := map[string]int{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			base := d.Name()
			if base == "testdata" || base == "vendor" || base == "internal" || rel == "cmd" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("read %s: %w", rel, err)
		}
		for _, line := range strings.Split(string(src), "\n") {
			_, comment, ok := strings.Cut(line, "//")
			if !ok {
				continue
			}
			for _, m := range determinerRE.FindAllStringSubmatch(comment, -1) {
				counts[strings.ToLower(m[1])]++
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("walk %s: %w", root, err)
	}
	var words []string
	for w, n := range counts {
		if n >= minCount && len(w) >= minLen {
			words = append(words, w)
		}
	}
	slices.Sort(words)
	w := os.Stdout
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# English nouns of the Go %s standard library's doc comments; regenerate with go run ./rules/internal/genenglish -out rules/english.txt\n", runtime.Version())
	for _, word := range words {
		fmt.Fprintln(bw, word)
	}
	return bw.Flush()
}

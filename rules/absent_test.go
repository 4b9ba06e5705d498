package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
)

// extractedClaim returns the doc-comment claim of symbol as the extractor
// finds it in a review (mentions resolved with the workspace's symbols).
func extractedClaim(t *testing.T, ws *review.Workspace, symbol string) review.Claim {
	t.Helper()
	for _, c := range extractAll(t, ws, review.ScopeAll) {
		if c.Symbol == symbol {
			return c
		}
	}
	t.Fatalf("no claim for %s", symbol)
	return review.Claim{}
}

// TestAbsentNames checks the absent answer: a name Go puts in one scope
// that was loaded completely and does not declare it is contradicted, with
// a suggestion only when one candidate wins clearly.
func TestAbsentNames(t *testing.T) {
	ws := loadWorkspace(t, "absent")
	rule := &StaleReference{}
	tests := []struct {
		symbol     string
		message    string // substring; "" for no verdict
		suggestion string // "" for none
	}{
		{"Frob", "Command.NoSuchMethod does not exist: type Command has no field or method NoSuchMethod, and no name there is close to it", ""},
		{"Foo", "Bar does not exist: neither package tree nor a package it imports declares it", ""},
		// The abbreviation decides: ExecuteContext, not the closer ExecuteC.
		{"Run", "the closest existing name is Command.ExecuteContext", "Run runs the command. Call `Command.ExecuteContext` to pass a context."},
		// A method of the receiver, through the receiver's name.
		{"Command.Old", "c.RegisterFlagCompletionFunc does not exist", "Old registers nothing.\n\nDeprecated: It is recommended to instead use c.RegisterFlagCompletion(...)."},
		{"Command.Complete", "", ""},
		// A bare word amid prose is absent after a verb of calling or
		// near a name of the package; "MaxTableSize" is neither, and may
		// be a term of the domain.
		{"Walk", "setupEdgeField does not exist: neither package tree nor a package it imports declares it, and no name there is close to it.", ""},
		{"Tune", "MaxTreeLevel does not exist: neither package tree nor a package it imports declares it (the closest name is MaxTreeDepth)", ""},
		// History, hypotheses and contrasts need not exist.
		{"Retire", "", ""},
		// Brands, quoted words and names the imports declare are not absent.
		{"Hello", "", ""},
		{"Serve", "", ""},
		// Words the code uses in another form: a JSON key, a local
		// variable; and names given as examples.
		{"Page", "", ""},
		{"Depth", "", ""},
		{"Sentinel", "", ""},
		// A section about breaking changes names what is gone, and
		// main's doc opens with the program's name (gods' examples).
		{"Reroot", "", ""},
		{"main", "", ""},
		// A lowerCamel word amid prose is code; an UpperCamel opening
		// word of two words is code when a verb follows it.
		{"Prune", "pruneLeaf does not exist: neither package tree nor a package it imports declares it", ""},
		{"Graft", "TreeNode does not exist: neither package tree nor a package it imports declares it", ""},
		{"Trace", "", ""},
		// Arguments of a call written in prose are placeholders
		// (humanize's RelTime(timeInPast, timeInFuture, ...)).
		{"Span", "", ""},
		// The package's own name as its authors write it is no
		// reference; a lowerCamel name beside it still is.
		{"Sum64", "sumBytes does not exist", ""},
		{"Sum32", "", ""},
		// A type of an imported package named bare, and an Example
		// function (test files are not loaded), are no stale names.
		{"Fetch", "", ""},
		// A bare name the doc also writes as a member of a qualifier
		// is that member.
		{"Buf.Secure", "", ""},
		{"Buf.Rotate", "SetSessionKeys does not exist", ""},
		// Two words, the first a prefix only Go names use.
		{"Plant", "WithGardener does not exist", ""},
		// Names the reader declares: My…, Foo….
		{"AddHook", "", ""},
		// The key types of a map sketched in prose describe the keys,
		// and the cells of a byte layout name bytes.
		{"Index", "", ""},
		{"Layout", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := extractedClaim(t, ws, tt.symbol)
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			if tt.message == "" {
				if got != nil {
					t.Fatalf("got %q, want no verdict", got.Message)
				}
				return
			}
			if got == nil {
				t.Fatalf("got no verdict, want %q", tt.message)
			}
			if got.Label != review.Contradicted || !strings.Contains(got.Message, tt.message) {
				t.Errorf("got %s %q, want contradicted containing %q", got.Label, got.Message, tt.message)
			}
			if got.Suggestion != tt.suggestion {
				t.Errorf("suggestion %q, want %q", got.Suggestion, tt.suggestion)
			}
			if len(got.Evidence) == 0 {
				t.Error("no evidence")
			}
		})
	}
}

// TestUnverified checks that names the review could not check are listed,
// and that names it resolved or reported are not.
func TestUnverified(t *testing.T) {
	ws := loadWorkspace(t, "inventory")
	rule := &StaleReference{}
	c := mdClaim(t, ws, "README.md", "http.Get")
	got := rule.Unverified(t.Context(), ws, c)
	if !slices.Contains(got, "yaml.Marshal") {
		t.Errorf("unverified %q, want yaml.Marshal (a package docreview did not load)", got)
	}
	if slices.Contains(got, "http.Get") {
		t.Errorf("unverified %q lists http.Get, which resolves in the standard library", got)
	}
	aws := loadWorkspace(t, "absent")
	for _, symbol := range []string{"Frob", "Command.Complete"} {
		if got := rule.Unverified(t.Context(), aws, extractedClaim(t, aws, symbol)); len(got) != 0 {
			t.Errorf("%s: unverified %q, want none (resolved or reported absent)", symbol, got)
		}
	}
}

// TestWrongParameterPlainWords checks parameter names written as plain
// words: a word that is a parameter of a sibling func, unused by the body,
// on a func with a parameter the doc never names.
func TestWrongParameterPlainWords(t *testing.T) {
	ws := loadWorkspace(t, "absent")
	rule := &WrongParameter{}
	tests := []struct {
		symbol     string
		message    string
		suggestion string
	}{
		{"Buf.Grow", "The doc names parameter n, but Buf.Grow's parameters are count", "Grow grows the buffer. It panics if count is negative."},
		{"Wait", "The doc names parameter timeout, but Wait's parameters are d", "Wait blocks until d elapses."},
		{"Buf.Fill", "", ""},  // "the source": an English noun
		{"Buf.Load", "", ""},  // no func has a parameter called source
		{"Buf.Drain", "", ""}, // limit is a local of the body
		{"Buf.Slop", "", ""},  // <n> is a placeholder
		{"Buf.Find", "", ""},  // "the entry does not exist": a noun
		{"Buf.Merge", "", ""}, // an English word tied to dest only by the type string
		{"Buf.Check", "", ""}, // "the specified level is": a noun phrase
		// In single quotes a word is a name, English or not.
		{"Buf.Reset", "The doc names parameter writer, but Buf.Reset's parameters are reader", "Reset starts over, reading from 'reader' again."},
		// A lower-case word opening a sentence, as the subject of a verb.
		{"Buf.Lookup", "The doc uses hint as a parameter name, but Buf.Lookup's parameters are name and kind", ""},
		// A mixedCaps name the package does not declare; the parameter
		// sharing a word with it is the fix.
		{"Unmarshal", "The doc names parameter userKey, but Unmarshal's parameters are input and groupKey", "Unmarshal decodes the group pointed to by groupKey."},
		// Called a parameter: a field called array does not matter.
		{"Buf.Toggle", "The doc uses array as a parameter name, but Buf.Toggle's parameters are list", ""},
		// A list item is prose, not code.
		{"Header", "The doc uses blockNr as a parameter name, but Header's parameters are number", ""},
		{"Buf.Span", "", ""},    // a pattern and a URL, not names
		{"Ticker", "", ""},      // the Writer argument: the parameter's type
		{"NewWriterAt", "", ""}, // newWriter: NewWriter in the wrong case, for stale-reference
		{"Buf.Yield", "", ""},   // "ou can": a typo opening a sentence
		{"Buf.Open", "", ""},    // "you should call it": a pronoun opening a line
		{"Concat", "", ""},      // names of a code example
		{"Lower", "", ""},       // "scrİpt": a word of text, not ASCII
		{"Buf.Tag", "", ""},     // "will be 'i'": quoted values
		{"Buf.Share", "", ""},   // "'writer' and 'reader'": a list of quoted names
		{"Buf.Send", "", ""},    // "an ackResponse": a kind of thing, not a parameter

	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, extractedClaim(t, ws, tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			if tt.message == "" {
				if got != nil {
					t.Fatalf("got %q, want no verdict", got.Message)
				}
				return
			}
			if got == nil || !strings.Contains(got.Message, tt.message) || got.Suggestion != tt.suggestion {
				t.Fatalf("got %+v, want message %q and suggestion %q", got, tt.message, tt.suggestion)
			}
		})
	}
}

// TestAbsentQualifier checks that a qualifier is read as Go reads it: the
// package the doc's file imports under it, and no module package when the
// standard library has one of the same name and nothing is imported.
func TestAbsentQualifier(t *testing.T) {
	ws := loadWorkspace(t, "absent")
	rule := &StaleReference{}
	// "json.Marshaller" in a package that imports the module's json
	// package: a typo of json.Marshal there.
	got, err := rule.Judge(t.Context(), ws, extractedClaim(t, ws, "Encode"))
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Suggestion != "Encode encodes v with json.Marshal." {
		t.Errorf("Encode: got %+v, want the fix json.Marshal", got)
	}
	readme := review.Claim{
		Path: "README.md", Line: 1, EndLine: 1, Kind: review.KindMarkdown,
		Text:     "Value implements `json.Marshaller`.",
		Mentions: []review.Mention{{Kind: review.MentionCode, Text: "json.Marshaller", Line: 1, EndLine: 1}},
	}
	got, err = rule.Judge(t.Context(), ws, readme)
	if err != nil {
		t.Fatal(err)
	}
	if got != nil {
		t.Errorf("README: got %q, want none: json may be encoding/json", got.Message)
	}
}

// TestAbsentStdRival checks a qualifier that a standard package shares:
// "json.Marshaller" on a MarshalJSON method means encoding/json's
// Marshaler, even in a file importing the module's own json package, so
// the module's json.Marshal is no fix.
func TestAbsentStdRival(t *testing.T) {
	ws := loadWorkspace(t, "absent")
	got, err := (&StaleReference{}).Judge(t.Context(), ws, extractedClaim(t, ws, "Value.MarshalJSON"))
	if err != nil {
		t.Fatal(err)
	}
	if got != nil {
		t.Errorf("got %q (suggestion %q), want none", got.Message, got.Suggestion)
	}
}

// TestAbsentMarkdownHistory checks that a Markdown section about breaking
// changes may name what no longer exists, while the same kind of name
// elsewhere in the file is absent (retry-go's README).
func TestAbsentMarkdownHistory(t *testing.T) {
	ws := loadWorkspace(t, "absent")
	claims := extractAll(t, ws, review.ScopeAll)
	want := map[string]string{
		"Build trees": "tree.Grafted does not exist",
		// A backticked exported name close to one of the module's; not
		// a placeholder, nor one with no close name.
		"Bound the walk": "MaxTreeLevel does not exist: neither the module nor a package it imports declares it (the closest name is MaxTreeDepth).",
		"tree.Replant":   "",
		// Names the module's imports export (net/http's Handler).
		"Trees serve": "",
	}
	seen := 0
	for _, c := range claims {
		if c.Path != "README.md" {
			continue
		}
		for prefix, msg := range want {
			if !strings.Contains(c.Text, prefix) {
				continue
			}
			seen++
			got, err := (&StaleReference{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case msg == "" && got != nil:
				t.Errorf("%q: got %q, want no verdict", prefix, got.Message)
			case msg != "" && (got == nil || !strings.Contains(got.Message, msg)):
				t.Errorf("%q: got %v, want a verdict containing %q", prefix, got, msg)
			case got != nil && (strings.Contains(got.Message, "MyTreeOption") || strings.Contains(got.Message, "SetupWidget")):
				t.Errorf("%q: got %q, which reports a placeholder or a name with no close one", prefix, got.Message)
			}
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of the %d README claims", seen, len(want))
	}
}

// TestAbsentDomainTerm checks that a word the package's names are made of
// (DBaaS, of ServiceTypeDBaaS) is a term of its domain, while a name
// that extends one is still looked for.
func TestAbsentDomainTerm(t *testing.T) {
	ws := loadWorkspace(t, "domainterm")
	ws.Scope = review.ScopeAll
	for _, tt := range []struct{ symbol, message string }{
		{"Backup", ""},
		{"Restore", "RestoreDBaaSNow does not exist"},
		// A part of ForkOptions, but the name this diff renamed.
		{"Clone", "ForkDB was renamed to BranchDB"},
		// folio's RFC 3161 and PDF terms: the doc of timeStampResp
		// names TimeStampResp, the code writes "/BaseFont"; a
		// misspelt parseResp stays a finding.
		{"parseResp", ""},
		{"FontName", ""},
		{"Count", ""},
		// FerretDB's OpMsg documented as the protocol writes it.
		{"OpMsg", ""},
		// badger's "MaxTableSize set to" beside an error message that
		// still quotes opt.MaxTableSize: quoted as code, still stale.
		{"Options.WithBaseTableSize", "MaxTableSize does not exist"},
		{"Verify", "parseRespp does not exist"},
	} {
		t.Run(tt.symbol, func(t *testing.T) {
			got, err := (&StaleReference{}).Judge(t.Context(), ws, extractedClaim(t, ws, tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.message == "" && got != nil:
				t.Errorf("got %s %q, want no verdict", got.Label, got.Message)
			case tt.message != "" && (got == nil || !strings.Contains(got.Message, tt.message)):
				t.Errorf("got %+v, want a verdict saying %q", got, tt.message)
			}
		})
	}
}

// TestTermOfNames checks which words count as terms of a package's names:
// one run of lower-case letters at most, and a whole camel-case part of a
// longer name.
func TestTermOfNames(t *testing.T) {
	ws := loadWorkspace(t, "domainterm")
	p := ws.Symbols.Package(".")
	for _, tt := range []struct {
		word string
		want bool
	}{
		{"DBaaS", true},       // of ServiceTypeDBaaS
		{"BackupPlan", false}, // of NewBackupPlan, but a name of two words
		{"Type", true},        // ends ServiceType
		{"Service", true},     // opens ServiceType
		{"Nothing", false},
	} {
		if got := termOfNames(p, tt.word); got != tt.want {
			t.Errorf("termOfNames(%q) = %v, want %v", tt.word, got, tt.want)
		}
	}
}

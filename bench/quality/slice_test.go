package quality

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/extract"
	"github.com/docreview/docreview/rules"
)

// sliceModules is the CI slice: per half, one small module with real fixes
// and mutations and one small audited module.
var sliceModules = []string{
	"github.com/coreos/go-oidc/v3", "github.com/hashicorp/yamux", // dev
	"go.uber.org/dig", "github.com/gorilla/sessions", // test
}

// TestSlice runs the slice through the real engine. Its floors sit at or
// just under what the rules scored when it was written (2 of 3 real fixes,
// 10 of 24 mutations, 0 of 10 clean edits flagged), so a rule that gets
// worse fails the build; every audit finding must be in the ledger, so a
// change of fingerprint or a new finding is noticed and labelled.
func TestSlice(t *testing.T) {
	d, err := LoadData()
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range sliceModules {
		m, ok := d.Module(mod)
		if !ok {
			t.Fatalf("%s is not in modules.json", mod)
		}
		if m.Version != "" {
			if _, err := download(t.Context(), m.Path, m.Version); err != nil {
				t.Skipf("module not in the cache and the proxy is unreachable: %v", err)
			}
		}
	}
	eng := &review.Engine{Extractor: &extract.Extractor{}, Rules: rules.All(), Types: &retrieval.TypeCache{Dir: t.TempDir()}}
	t.Run("mutations-reproduce", func(t *testing.T) {
		for _, mod := range sliceModules {
			m, _ := d.Module(mod)
			if !(Selection{}).wants(SetMutation, m) {
				continue
			}
			got, err := GenerateMutationFile(t.Context(), []ModuleEntry{m}, d.Mutations.Seed)
			if err != nil {
				t.Fatal(err)
			}
			var want []Mutation
			for _, c := range d.Mutations.Cases {
				if c.Module == mod {
					want = append(want, c)
				}
			}
			if !reflect.DeepEqual(got.Cases, want) {
				t.Errorf("%s: data/mutations.json holds %d cases that the generator does not write again (it writes %d): run go run ./bench/quality/mutate", mod, len(want), len(got.Cases))
			}
			if !reflect.DeepEqual(got.PerModule[mod], d.Mutations.PerModule[mod]) {
				t.Errorf("%s: mention styles %v, stored %v", mod, got.PerModule[mod], d.Mutations.PerModule[mod])
			}
		}
	})
	rep, err := Run(t.Context(), d, Options{Engine: eng, Selection: Selection{Modules: sliceModules}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMisses(&text); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", text.String())

	if rep.Errors != 0 {
		t.Errorf("%d cases or audits could not be reviewed", rep.Errors)
	}
	halves := map[string]bool{}
	for _, c := range rep.Cases {
		halves[c.Half] = true
	}
	if !halves[HalfDev] || !halves[HalfTest] {
		t.Errorf("slice covers halves %v, want both", halves)
	}
	realCases, realHits := 0, 0
	mutCases, mutHits := 0, 0
	cleanCases, cleanFlagged := 0, 0
	for _, h := range []string{HalfDev, HalfTest} {
		c, n := rep.Totals(SetReal, h)
		realCases, realHits = realCases+c, realHits+n
		c, n = rep.Totals(SetMutation, h)
		mutCases, mutHits = mutCases+c, mutHits+n
	}
	for _, row := range rep.Recall {
		if row.Kind == MutClean {
			cleanCases += row.Cases
			cleanFlagged += row.Hits
		}
	}
	if realCases == 0 || realHits < 2 {
		t.Errorf("real fixes: %d of %d found, want at least 2", realHits, realCases)
	}
	if mutCases == 0 || mutHits < 9 {
		t.Errorf("mutations: %d of %d found, want at least 9", mutHits, mutCases)
	}
	if cleanCases == 0 || cleanFlagged > 1 {
		t.Errorf("clean edits: %d of %d flagged, want at most 1", cleanFlagged, cleanCases)
	}
	if len(rep.Audits) != 2 {
		t.Fatalf("%d audits, want 2", len(rep.Audits))
	}
	for _, a := range rep.Audits {
		if a.DocLines == 0 || a.Claims == 0 {
			t.Errorf("%s: %d doc lines, %d claims", a.Module, a.DocLines, a.Claims)
		}
		for _, f := range a.Findings {
			if f.Verdict == "" {
				t.Errorf("%s: finding %s (%s:%d %s) is not in the ledger: label it (docreview bench quality --unlabelled)", a.Module, f.Fingerprint, f.Path, f.Line, f.Message)
			}
		}
	}
}

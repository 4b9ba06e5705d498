package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestPredatingGaps checks that missing-contract and restates-name leave
// alone the gaps a doc already had before the diff, unless the review
// audits the whole repository.
func TestPredatingGaps(t *testing.T) {
	ws := loadWorkspace(t, "predates")
	line := func(s string) int { return lineOf(t, ws, "vault.go", s) }
	code := func(s, why string) ev { return ev{"vault.go", line(s), line(s), review.SourceCode, why} }
	decl := func(s, why string) ev {
		l := line(s)
		return ev{"vault.go", l, declEnd(t, ws, "vault.go", l), review.SourceCode, why}
	}
	contract := map[string]*want{
		"Vault.Get": {
			label:      review.Incomplete,
			message:    "Doc comment of Vault.Get does not say that it returns ErrClosed (v.closed).",
			suggestion: "Get hands back the secret stored under name. It returns ErrClosed when `v.closed`.",
			evidence:   []ev{code(`return "", ErrClosed`, "returns ErrClosed when v.closed")},
		},
		"Check": {
			label:      review.Incomplete,
			message:    `Doc comment of Check does not say that it returns ErrBadName (strings.Contains(name, " ")).`,
			suggestion: "Check reports whether name may be stored. It returns ErrBadName when `strings.Contains(name, \" \")`.",
			evidence:   []ev{code(`return false, ErrBadName`, `returns ErrBadName when strings.Contains(name, " ")`)},
		},
	}
	openEv := code(`return "", ErrNotFound`, "returns ErrNotFound when !ok")
	fetch := line("func (v *Vault) Fetch(") + 4 // Fetch's return of ErrNotFound
	fetchEv := ev{"vault.go", fetch, fetch, review.SourceCode, "returns ErrNotFound when !ok"}
	docLines := func(s string, n int, why string) ev {
		l := line(s)
		return ev{"vault.go", l, l + n - 1, review.SourceDiff, why}
	}
	restates := map[string]*want{
		"Vault.Seal": {
			label:   review.Incomplete,
			message: "Doc comment of Vault.Seal only restates its name since this diff removed the rest of it",
			evidence: []ev{
				decl("func (v *Vault) Seal(", "declaration of Vault.Seal: takes reason string; returns int"),
				docLines("// Seal seals", 1, "this diff removed from the doc: Seal locks the vault, hands back the count of secrets and drops them."),
			},
		},
		"Vault.Size": { // a trivial accessor, but the diff removed what its doc said
			label:   review.Incomplete,
			message: "Doc comment of Vault.Size only restates its name since this diff removed the rest of it",
			evidence: []ev{
				decl("func (v *Vault) Size(", "declaration of Vault.Size: takes no arguments; returns Size"),
				docLines("// Size returns the size.", 1, "this diff removed from the doc: Size returns the number of secrets held, sealed or not; a nil Vault has size 0."),
			},
		},
	}
	auditContract := map[string]*want{
		"Vault.Open": {label: review.Incomplete, message: "Vault.Open does not say that it returns ErrNotFound (!ok).", evidence: []ev{openEv},
			suggestion: "Open looks up the secret stored under name and hands back its value\nto the caller for use. It returns ErrNotFound."},
		"Vault.Fetch": {label: review.Incomplete, message: "Vault.Fetch does not say that it returns ErrNotFound (!ok).", evidence: []ev{fetchEv},
			suggestion: "Fetch hands back the secret stored under name. It returns ErrNotFound."},
		"Vault.Get": contract["Vault.Get"],
		"Check":     contract["Check"],
	}
	// An audit judges the docs as they are: no base to compare with, so
	// the accessor's exemption holds, and so does that of straight-line code
	// whose doc says what the name applies to (Vault.Seal: "the Vault").
	auditRestates := map[string]*want{
		"Vault.Count": {
			label:    review.Incomplete,
			message:  "Doc comment of Vault.Count only restates its name",
			evidence: []ev{decl("func (v *Vault) Count(", "declaration of Vault.Count: takes no arguments; returns int")},
		},
		"Vault.Purge": {
			label:    review.Incomplete,
			message:  "Doc comment of Vault.Purge only restates its name",
			evidence: []ev{decl("func (v *Vault) Purge(", "declaration of Vault.Purge: takes keep string; returns nothing")},
		},
	}
	symbols := []string{
		"Vault.Open",  // doc reflowed, contract unchanged
		"Vault.Fetch", // code changed, contract and doc unchanged
		"Vault.Get",   // the diff adds an error return
		"Vault.Seal",  // the doc newly restates the name
		"Vault.Purge", // a typo fix in a doc that already restated the name
		"Check",       // the diff deletes the doc's contract sentence
		"Vault.Size",  // an accessor whose doc the diff reduced to its name
		"Vault.Count", // a typo fix in a doc that already restated the name
	}
	for _, scope := range []review.Scope{"", review.ScopeAffected, review.ScopeChanged, review.ScopeAll} {
		ws.Scope = scope
		wantContract, wantRestates := contract, restates
		if scope == review.ScopeAll {
			wantContract, wantRestates = auditContract, auditRestates
		}
		for _, sym := range symbols {
			c := goClaim(t, ws, "vault.go", sym)
			for _, tc := range []struct {
				rule review.Judge
				want map[string]*want
			}{{&MissingContract{}, wantContract}, {&RestatesName{Audit: true}, wantRestates}} {
				t.Run(string(scope)+"/"+tc.rule.Name()+"/"+sym, func(t *testing.T) {
					got, err := tc.rule.Judge(t.Context(), ws, c)
					if err != nil {
						t.Fatal(err)
					}
					checkVerdict(t, tc.rule, got, tc.want[sym])
				})
			}
		}
	}
}

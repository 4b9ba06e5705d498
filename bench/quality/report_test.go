package quality

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
)

func verdict(path string, line, end int, label review.Label, rule, skipped string) review.Verdict {
	return review.Verdict{Claim: review.Claim{ID: "abc", Path: path, Line: line, EndLine: end}, Label: label, Rule: rule, Skipped: skipped}
}

func TestScore(t *testing.T) {
	expect := []Span{{Path: "a.go", Line: 10, EndLine: 12}}
	tests := []struct {
		name      string
		verdicts  []review.Verdict
		hit       bool
		label     string
		cause     string
		nFindings int
	}{
		{"no claim", []review.Verdict{verdict("a.go", 1, 3, review.Contradicted, "stale-reference", "")}, false, "", "name/bare: no claim on the lines", 0},
		{"other file", []review.Verdict{verdict("b.go", 10, 12, review.Contradicted, "stale-reference", "")}, false, "", "name/bare: no claim on the lines", 0},
		{"consistent", []review.Verdict{verdict("a.go", 9, 11, review.Consistent, "stale-reference", "")}, false, "", "name/bare: judged consistent", 0},
		{"skipped", []review.Verdict{verdict("a.go", 12, 14, review.Consistent, "", "parse error")}, false, "", "name/bare: claim skipped: parse error", 0},
		{"incomplete hit", []review.Verdict{verdict("a.go", 12, 14, review.Incomplete, "missing-contract", "")}, true, "incomplete", "", 1},
		{"contradicted wins", []review.Verdict{
			verdict("a.go", 12, 14, review.Incomplete, "missing-contract", ""),
			verdict("a.go", 10, 10, review.Contradicted, "stale-reference", ""),
		}, true, "contradicted", "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := CaseResult{Kind: "name", Style: "bare", Expect: expect}
			score(&res, reviewed{Report: review.Report{Verdicts: tt.verdicts}})
			if res.Hit != tt.hit || res.HitLabel != tt.label || res.Cause != tt.cause || len(res.Findings) != tt.nFindings {
				t.Errorf("got hit %v label %q cause %q findings %d; want %v %q %q %d", res.Hit, res.HitLabel, res.Cause, len(res.Findings), tt.hit, tt.label, tt.cause, tt.nFindings)
			}
		})
	}
}

func TestScoreMentions(t *testing.T) {
	expect := []Span{{Path: "a.go", Line: 10, EndLine: 12}}
	v := verdict("a.go", 10, 12, review.Consistent, "", "")
	tests := []struct {
		name, wrong string
		mentions    []review.Mention
		cause       string
	}{
		{"extracted", "Client.Doo", []review.Mention{{Kind: review.MentionIdent, Text: "Client.Doo"}}, "name/bare: mention extracted, judged consistent"},
		{"extracted call", "c.Doo()", []review.Mention{{Kind: review.MentionIdent, Text: "Doo"}}, "name/bare: mention extracted, judged consistent"},
		{"not extracted", "Doo", []review.Mention{{Kind: review.MentionIdent, Text: "Other"}}, "name/bare: not extracted as a mention"},
		{"block", "x := f()", []review.Mention{{Kind: review.MentionBlock, Text: "a := 1\nx := f()\n"}}, "name/bare: mention extracted, judged consistent"},
		{"no wrong text", "", nil, "name/bare: judged consistent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := CaseResult{Kind: "name", Style: "bare", Expect: expect, Wrong: tt.wrong}
			score(&res, reviewed{Report: review.Report{Verdicts: []review.Verdict{v}}, mentions: map[string][]review.Mention{"abc": tt.mentions}})
			if res.Cause != tt.cause {
				t.Errorf("cause %q, want %q", res.Cause, tt.cause)
			}
		})
	}
}

func TestMutationWrong(t *testing.T) {
	tests := []struct{ kind, detail, want string }{
		{MutName, "Client.OnError -> Client.AllowError", "Client.AllowError"},
		{MutParameter, "Cache.Store: key -> name", "name"},
		{MutLiteral, "MaxEntries: 128 -> 16", "16"},
		{MutPercent, "Ratio: 25% -> 0.25%", "0.25%"},
		{MutRename, "NewCache -> NewFetch in code", "NewCache"},
		{MutDefault, "MaxEntries: 128 -> 256 in code", "128"},
		{MutClean, "rewrapped at 60 columns", ""},
	}
	for _, tt := range tests {
		if got := mutationWrong(Mutation{Kind: tt.kind, Detail: tt.detail}); got != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.kind, tt.detail, got, tt.want)
		}
	}
}

func TestSummarise(t *testing.T) {
	rep := &Report{
		Cases: []CaseResult{
			{Set: SetReal, Half: HalfDev, Kind: KindName, Style: StyleDocLink, Hit: true, HitLabel: "contradicted"},
			{Set: SetReal, Half: HalfDev, Kind: KindName, Style: StyleBare, Cause: "name/bare: judged consistent"},
			{Set: SetReal, Half: HalfDev, Kind: KindName, Cause: "name/bare: judged consistent"},
			{Set: SetReal, Half: HalfTest, Kind: KindLink, Hit: true, HitLabel: "incomplete"},
			{Set: SetReal, Half: HalfTest, Kind: KindSnippet, Compiler: CompilerRejects, Hit: true, HitLabel: "contradicted"},
			{Set: SetReal, Half: HalfTest, Kind: KindSnippet, Compiler: CompilerRejects, Cause: "snippet/code: judged consistent"},
			{Set: SetReal, Half: HalfTest, Kind: KindSnippet, Compiler: CompilerAccepts, Hit: true, HitLabel: "contradicted"},
			{Set: SetReal, Half: HalfTest, Kind: KindSnippet, Compiler: CompilerUnclear, Cause: "snippet/code: not extracted"},
			{Set: SetMutation, Half: HalfTest, Kind: MutClean, Hit: true, Cause: "clean edit flagged by restates-name"},
			{Set: SetMutation, Half: HalfTest, Kind: MutClean},
			{Set: SetMutation, Half: HalfTest, Kind: MutName, Error: "boom", Cause: "name/bare: review failed"},
		},
		Audits: []AuditResult{
			{Half: HalfDev, DocLines: 2000, Findings: []AuditFinding{
				{Finding: Finding{Rule: "stale-reference", Label: "contradicted"}, Verdict: VerdictTrue},
				{Finding: Finding{Rule: "stale-reference", Label: "contradicted"}, Verdict: VerdictFalse, Cause: "name exists in std"},
				{Finding: Finding{Rule: "stale-reference", Label: "contradicted"}, Verdict: VerdictFalse, Cause: "name exists in std"},
				{Finding: Finding{Rule: "stale-reference", Label: "contradicted"}, Verdict: VerdictDebatable},
				{Finding: Finding{Rule: "stale-reference", Label: "contradicted"}},
				{Finding: Finding{Rule: "missing-contract", Label: "incomplete"}},
			}},
		},
	}
	rep.summarise()
	row := func(set, half, kind string) RecallRow {
		for _, r := range rep.Recall {
			if r.Set == set && r.Half == half && r.Kind == kind {
				return r
			}
		}
		t.Fatalf("no row %s/%s/%s", set, half, kind)
		return RecallRow{}
	}
	if r := row(SetReal, HalfDev, KindName); r.Cases != 3 || r.Hits != 1 || r.Contradicted != 1 || r.Recall < 0.33 || r.Recall > 0.34 {
		t.Errorf("real/dev/name row: %+v", r)
	}
	if r := row(SetReal, HalfTest, KindLink); r.Hits != 1 || r.Contradicted != 0 {
		t.Errorf("real/test/link row: %+v", r)
	}
	if r := row(SetReal, HalfTest, KindSnippet); r.Cases != 4 || r.Hits != 2 {
		t.Errorf("real/test/snippet row: %+v", r)
	}
	if r := row(SetReal, HalfTest, KindSnippetRejected); r.Cases != 2 || r.Hits != 1 || r.Recall != 0.5 {
		t.Errorf("real/test/snippet-rejected row: %+v", r)
	}
	if i := slices.IndexFunc(rep.Recall, func(r RecallRow) bool { return r.Kind == KindSnippetRejected }); i < 1 || rep.Recall[i-1].Kind != KindSnippet {
		t.Errorf("the compiler-rejects row does not follow the snippet row: %+v", rep.Recall)
	}
	if r := row(SetMutation, HalfTest, MutClean); r.Cases != 2 || r.Hits != 1 {
		t.Errorf("clean row: %+v", r)
	}
	if len(rep.ByStyle) != 2 || rep.ByStyle[0].Kind != StyleBare || rep.ByStyle[0].Hits != 0 || rep.ByStyle[1].Kind != StyleDocLink || rep.ByStyle[1].Hits != 1 {
		t.Errorf("by style: %+v", rep.ByStyle)
	}
	if rep.Errors != 1 {
		t.Errorf("errors %d, want 1", rep.Errors)
	}
	var stale, contract PrecisionRow
	for _, p := range rep.Precision {
		switch p.Rule {
		case "stale-reference":
			stale = p
		case "missing-contract":
			contract = p
		}
	}
	if stale.True != 1 || stale.False != 2 || stale.Debatable != 1 || stale.Unlabelled != 1 || stale.Precision < 0.33 || stale.Precision > 0.34 {
		t.Errorf("stale-reference precision: %+v", stale)
	}
	if contract.Unlabelled != 1 || contract.Precision != -1 {
		t.Errorf("an unlabelled finding must not count either way: %+v", contract)
	}
	if len(rep.Noise) != 1 || rep.Noise[0].Contradicted != 5 || rep.Noise[0].PerKLine != 2.5 {
		t.Errorf("noise: %+v", rep.Noise)
	}
	if len(rep.MissCauses) == 0 || rep.MissCauses[0] != (Count{"name/bare: judged consistent", 2}) {
		t.Errorf("miss causes: %+v", rep.MissCauses)
	}
	if len(rep.FalsePositiveCauses) != 2 || rep.FalsePositiveCauses[0] != (Count{"name exists in std", 2}) {
		t.Errorf("false-positive causes: %+v", rep.FalsePositiveCauses)
	}

	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"clean edits (test): 1 of 2 flagged", "stale-reference", "0.33", "largest miss causes", "name exists in std", "2.50 contradicted per 1,000 lines", "1 cases or audits could not be reviewed"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Recall) != len(rep.Recall) || len(back.Precision) != len(rep.Precision) || len(back.Cases) != len(rep.Cases) {
		t.Errorf("JSON round trip lost rows")
	}
	var unl bytes.Buffer
	if err := rep.WriteUnlabelled(&unl); err != nil {
		t.Fatal(err)
	}
	var entries []LedgerEntry
	if err := json.Unmarshal(unl.Bytes(), &entries); err != nil || len(entries) != 2 {
		t.Errorf("unlabelled: %d entries (%v): %s", len(entries), err, unl.String())
	}
}

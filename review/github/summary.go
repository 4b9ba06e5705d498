package github

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/mdtext"
)

// summaryBody is the summary comment. It describes the state of the pull
// request after this run, not what the run did, so a re-run on the same
// head produces the same text and the comment is left alone: the marker,
// the reviewed commits, counts per label, coverage (claims checked and
// skipped with reasons, files not fully reviewed), how many findings are
// inline comments, the findings that are not (outside the diff, over the
// comment limit, refused by GitHub), the dismissed and resolved findings, and the model's
// costs.
//
// A summary over [maxCommentBody] is rebuilt with shorter lists (each
// ends with a count of what it leaves out) until it fits; the findings it
// leaves out are all in the check run's annotations.
func summaryBody(opt Options, rep review.Report, findings []finding, ours ourComments, filesComplete bool) string {
	var body string
	for _, n := range []int{0, 500, 100, 20, 5, 1} {
		if body = summaryBodyWith(opt, rep, findings, ours, filesComplete, n); len(body) <= maxCommentBody {
			return body
		}
	}
	return body // writeSummary truncates what still does not fit
}

// listCap writes at most limit (0: all) of n list items with item, then a
// line counting the rest and saying where they are.
func listCap(b *strings.Builder, n, limit int, where string, item func(i int)) {
	shown := n
	if limit > 0 && n > limit {
		shown = limit
	}
	for i := range shown {
		item(i)
	}
	if left := n - shown; left > 0 {
		fmt.Fprintf(b, "- … and %d more, left out to fit GitHub's comment limit%s\n", left, where)
	}
}

func summaryBodyWith(opt Options, rep review.Report, findings []finding, ours ourComments, filesComplete bool, limit int) string {
	var b strings.Builder
	b.WriteString(summaryMarker + "\n")
	b.WriteString("## docreview\n\n")
	head := shortSHA(opt.HeadSHA)
	if rep.Base != "" {
		fmt.Fprintf(&b, "Reviewed %s..%s.\n\n", mdtext.Code(shortSHA(rep.Base)), mdtext.Code(head))
	} else {
		fmt.Fprintf(&b, "Reviewed %s.\n\n", mdtext.Code(head))
	}

	counts := map[review.Label]int{}
	var inline, dismissed int
	for _, f := range findings {
		if f.state == stDismissed {
			dismissed++
			continue
		}
		counts[f.v.Label]++
		if f.state == stNew || f.state == stKept {
			inline++
		}
	}
	// Consistent and skipped are the report's own counts (a skipped claim
	// is not also consistent); contradicted and incomplete are the
	// findings less the dismissed ones, which have their own column.
	st := reportStats(rep)
	skipped := skippedVerdicts(rep)
	b.WriteString("| Contradicted | Incomplete | Consistent | Skipped | Dismissed |\n| ---: | ---: | ---: | ---: | ---: |\n")
	fmt.Fprintf(&b, "| %d | %d | %d | %d | %d |\n\n", counts[review.Contradicted], counts[review.Incomplete], st.Consistent, st.Skipped, dismissed)

	fmt.Fprintf(&b, "**Coverage:** %d of %d %s checked", st.Claims-st.Skipped, st.Claims, plural(st.Claims, "claim", "claims"))
	if len(skipped) == 0 && len(rep.Notes) == 0 {
		b.WriteString("; nothing skipped.\n\n")
	} else {
		b.WriteString(".\n\n")
	}
	if len(skipped) > 0 {
		fmt.Fprintf(&b, "Skipped %s:\n\n", plural(len(skipped), "claim", "claims"))
		listCap(&b, len(skipped), limit, "", func(i int) {
			v := skipped[i]
			b.WriteString("- " + claimLoc(opt, v.Claim) + ": " + mdtext.Text(v.Skipped) + "\n")
		})
		b.WriteString("\n")
	}
	if len(rep.Notes) > 0 {
		b.WriteString("Files not fully reviewed:\n\n")
		listCap(&b, len(rep.Notes), limit, "", func(i int) {
			n := rep.Notes[i]
			where := "(review)"
			if n.Path != "" {
				where = mdtext.Code(n.Path)
			}
			b.WriteString("- " + where + ": " + mdtext.Text(n.Message) + "\n")
		})
		b.WriteString("\n")
	}
	if !filesComplete {
		fmt.Fprintf(&b, "The pull request's file list was read only up to %d pages; findings in files beyond it are listed below instead of inline.\n\n", maxPages)
	}
	if m := modelLine(rep.Stats.Model); m != "" {
		b.WriteString(mdtext.Text(m) + "\n\n")
	}
	if c := coverageLine(rep.Stats.Coverage); c != "" {
		b.WriteString(mdtext.Text(c) + "\n\n")
	}

	if inline > 0 {
		fmt.Fprintf(&b, "%d %s %s review comments on the diff.\n\n", inline, plural(inline, "finding", "findings"), plural(inline, "is a", "are"))
	}
	var rest []finding
	for _, f := range findings {
		switch f.state {
		case stOutside, stOverflow, stReviewOff, stRejected:
			rest = append(rest, f)
		}
	}
	if len(rest) > 0 {
		b.WriteString("### Findings not posted inline\n\n")
		listCap(&b, len(rest), limit, "; the check run's annotations list every finding", func(i int) {
			f := rest[i]
			why := "not on a line of this diff"
			switch f.state {
			case stOverflow:
				why = "over the limit of " + strconv.Itoa(opt.MaxComments) + " inline comments per run"
			case stReviewOff:
				why = "inline review comments are off"
			case stRejected:
				why = "GitHub would not place it on the diff, which may have changed since it was read"
			}
			b.WriteString("- " + headline(f.v) + " " + claimLoc(opt, f.v.Claim) + " (" + why + ")")
			if f.v.Suggestion != "" {
				b.WriteString(". Suggested: " + mdtext.Code(f.v.Suggestion))
			}
			b.WriteString(" <sub>" + mdtext.Code(f.fp) + "</sub>\n")
		})
		b.WriteString("\n")
	}
	var dis []finding
	for _, f := range findings {
		if f.state == stDismissed {
			dis = append(dis, f)
		}
	}
	if len(dis) > 0 {
		b.WriteString("### Dismissed\n\n")
		listCap(&b, len(dis), limit, "", func(i int) {
			f := dis[i]
			by := "unknown"
			if f.dismissal.By != "" {
				by = mdtext.Code(f.dismissal.By)
			}
			reason := mdtext.Text(f.dismissal.Reason)
			if reason == "" {
				reason = "no reason given"
			}
			b.WriteString("- " + headline(f.v) + " " + claimLoc(opt, f.v.Claim) + ": dismissed by " + by + ": " + reason +
				" <sub>" + mdtext.Code(f.fp) + "</sub>\n")
		})
		b.WriteString("\n")
	}
	if len(ours.resolved) > 0 {
		b.WriteString("### Resolved\n\n")
		listCap(&b, len(ours.resolved), limit, "", func(i int) {
			r := ours.resolved[i]
			line := r.c.GetLine()
			if line == 0 {
				line = r.c.GetOriginalLine()
			}
			loc := mdtext.Code(r.c.GetPath())
			if line > 0 {
				loc = mdtext.Code(r.c.GetPath() + ":" + strconv.Itoa(line))
			}
			if u := r.c.GetHTMLURL(); u != "" && strings.HasPrefix(u, "http") {
				loc = "[" + loc + "](" + u + ")"
			}
			b.WriteString("- " + loc)
			if h := struckHeadline(r.c.GetBody()); h != "" {
				b.WriteString(" " + h)
			}
			b.WriteString(" resolved in " + mdtext.Code(shortSHA(r.sha)) + " <sub>" + mdtext.Code(r.fp) + "</sub>\n")
		})
		b.WriteString("\n")
	}
	if len(findings) == 0 {
		b.WriteString("No contradicted or incomplete documentation found.\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// reportStats is rep.Stats, or the counts of its verdicts when the report
// carries none (a report built by hand, or decoded from an older JSON
// file without stats).
func reportStats(rep review.Report) review.Stats {
	if rep.Stats.Claims == 0 && len(rep.Verdicts) > 0 {
		return review.Count(rep.Verdicts)
	}
	return rep.Stats
}

// claimLoc links the claim's lines at the head, with its symbol.
func claimLoc(opt Options, c review.Claim) string {
	s := blobLink(opt, c.Path, c.Line, c.EndLine)
	if c.Symbol != "" {
		s += " " + mdtext.Code(c.Symbol)
	}
	return s
}

// modelLine is the model judge's sentence, or "" without a model.
func modelLine(s *review.ModelStats) string {
	if s == nil {
		return ""
	}
	return s.Sentence()
}

// struckHeadline is the struck-through headline line of a resolved comment
// body, or "".
func struckHeadline(body string) string {
	for i, l := range strings.SplitN(body, "\n", 8) {
		if i < 7 && strings.HasPrefix(l, "~~") && strings.HasSuffix(l, "~~") && len(l) > 4 {
			return l
		}
	}
	return ""
}

// coverageLine is the coverage sentence for a pull request, or "".
func coverageLine(c *review.CoverageChange) string {
	if c == nil {
		return ""
	}
	return c.Sentence("this pull request")
}

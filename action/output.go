package action

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/docreview/docreview/review"
)

// maxSummary is the size GitHub accepts for one step's summary.
const maxSummary = 1 << 20

// setOutputs appends name=value lines to the GITHUB_OUTPUT file; values
// with newlines use the heredoc form with a delimiter they do not contain.
func setOutputs(path string, kv [][2]string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("open GITHUB_OUTPUT: %w", err)
	}
	var b strings.Builder
	for _, p := range kv {
		if !strings.ContainsAny(p[1], "\r\n") {
			fmt.Fprintf(&b, "%s=%s\n", p[0], p[1])
			continue
		}
		delim := "docreview_EOF"
		for strings.Contains(p[1], delim) {
			delim += "_"
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", p[0], delim, p[1], delim)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return fmt.Errorf("write GITHUB_OUTPUT: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write GITHUB_OUTPUT: %w", err)
	}
	return nil
}

// appendSummary appends md to the step summary file, cut at what fits in
// GitHub's 1 MiB limit together with what the file already holds, with a
// line saying it was cut.
func appendSummary(path, md string) error {
	if path == "" {
		return nil
	}
	have := int64(0)
	if st, err := os.Stat(path); err == nil {
		have = st.Size()
	}
	room := maxSummary - have - 200
	if room <= 0 {
		return nil
	}
	if int64(len(md)) > room {
		cut := md[:room]
		if i := strings.LastIndexByte(cut, '\n'); i > 0 {
			cut = cut[:i+1]
		}
		md = cut + "\n_The summary was cut at GitHub's 1 MiB limit; the JSON report has everything._\n"
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("open GITHUB_STEP_SUMMARY: %w", err)
	}
	if _, err := f.WriteString(md); err != nil {
		f.Close()
		return fmt.Errorf("write GITHUB_STEP_SUMMARY: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write GITHUB_STEP_SUMMARY: %w", err)
	}
	return nil
}

var (
	escData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	escProp = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// annotate prints one workflow-command annotation per finding:
// ::error for contradicted, ::warning for incomplete, on the claim's file
// and lines, titled with the rule, the message and the suggestion as its
// text. GitHub shows at most 10 of each level per step; the job summary
// lists them all.
func annotate(w io.Writer, rep review.Report) error {
	for _, v := range rep.Verdicts {
		level := ""
		switch v.Label {
		case review.Contradicted:
			level = "error"
		case review.Incomplete:
			level = "warning"
		default:
			continue
		}
		msg := v.Message
		if v.Suggestion != "" {
			msg += "\nSuggested:\n" + v.Suggestion
		}
		if _, err := fmt.Fprintf(w, "::%s file=%s,line=%d,endLine=%d,title=%s::%s\n", level,
			escProp.Replace(v.Claim.Path), v.Claim.Line, max(v.Claim.EndLine, v.Claim.Line),
			escProp.Replace("docreview: "+string(v.Label)+" ("+v.Rule+")"), escData.Replace(msg)); err != nil {
			return fmt.Errorf("write annotations: %w", err)
		}
	}
	return nil
}

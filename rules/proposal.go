package rules

import (
	"errors"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/docreview/docreview/review"
)

// proposalHeadingRE matches a heading that only a design proposal has: the
// alternatives it weighed ("Alternatives considered", not a README's
// "Alternatives", which lists other libraries), the proposal or proposals
// themselves as a section, the options weighed ("Solution options",
// "Options considered"), what it leaves out ("Non-goals"), or the designs
// before it ("Prior art", "Prior implementations", as
// terraform-plugin-framework's docs/design notes have).
var proposalHeadingRE = regexp.MustCompile(`(?mi)^#{1,6}[ \t]+(?:\d+\.?[ \t]+)?(?:alternatives[ \t]+considered|alternative[ \t]+(?:designs?|approaches)(?:[ \t]+considered)?|non-?goals|rejected[ \t]+alternatives|considered[ \t]+alternatives|proposed[ \t]+(?:design|solution|api|changes?)|proposals?|prior[ \t]+(?:art|implementations?)|solution[ \t]+options|options[ \t]+considered)[ \t]*:?[ \t]*$`)

// proposals tells which Markdown files of a review are design proposals.
type proposals struct {
	files memo[bool]
}

// is reports whether the Markdown file p is a design proposal: a file
// outside the directories [isHistory] knows (design/mrtr.md) with a
// section of the alternatives it weighed or of the proposal itself, or a
// RATIONALE file. Its code shows the API as it was planned, so it is
// history, not drift. A file that cannot be read is no proposal, nor is a
// README.
func (pr *proposals) is(ws *review.Workspace, p string) bool {
	if ws == nil || ws.HeadFS == nil || path.Ext(p) == ".go" || strings.HasPrefix(strings.ToLower(path.Base(p)), "readme") {
		return false
	}
	ok, _ := pr.files.get(ws, p, func() (bool, error) {
		data, err := fs.ReadFile(ws.HeadFS, p)
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		// A record of design decisions (wazero's RATIONALE.md) weighs
		// APIs that were never built.
		base := strings.ToLower(path.Base(p))
		return strings.HasPrefix(base, "rationale") || proposalHeadingRE.Match(data), nil
	})
	return ok
}

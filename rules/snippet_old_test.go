package rules

import (
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
)

func TestMarkOf(t *testing.T) {
	tests := []struct {
		text  string
		major int
		want  int
	}{
		{"Before", 3, 1},
		{" before - This was a security vulnerability", 3, 1},
		{"**Before**:", 3, 1},
		{"#### Before (v2 usage)", 3, 1},
		{"<summary>Before</summary>", 3, 1},
		{"❌ **Session Fixation Vulnerability:**", 3, 1},
		{"Don't do this", 3, 1},
		{"v2 - Requires manual deletion", 3, 1},
		{"**v3 Code:**", 3, -1},
		{"v2", 0, 0}, // no major known: a version says nothing
		{"After", 3, -1},
		{"Becomes:", 3, -1},
		{"should now look like:", 3, -1},
		{"Should be changed to:", 3, -1},
		{"✅ **Secure Implementation:**", 3, -1},
		{"Older clients send no header", 3, 0},
		{"Create the app", 3, 0},
	}
	for _, tt := range tests {
		if got := markOf(tt.text, tt.major); got != tt.want {
			t.Errorf("markOf(%q, %d) = %d, want %d", tt.text, tt.major, got, tt.want)
		}
	}
	if got := moduleMajor("example.com/app/v3"); got != 3 {
		t.Errorf("moduleMajor(example.com/app/v3) = %d, want 3", got)
	}
	if got := moduleMajor("example.com/app"); got != 1 {
		t.Errorf("moduleMajor(example.com/app) = %d, want 1", got)
	}
}

// TestGoSnippetOldCode: the "before" half of a migration example is not
// checked; the rest of its block is.
func TestGoSnippetOldCode(t *testing.T) {
	ws := loadWorkspace(t, "oldcode")
	ws.Scope = review.ScopeAll
	tests := []struct {
		line string // a line of the claim's block
		want string // a part of the message, "" for no verdict
	}{
		{"first := app.Old()", ""},
		{"b := app.New()", ""},
		{"b := app.Gone()", "Gone"},
		{"second := app.Old()", ""},
		{"a := app.Gone()\n_ = a", "Gone"},
		{"// Before you run it", "Old"},
		{"ready := serviceA.Ready()", ""},                 // Read is a member of an unexported type only
		{"err := app.Run()", ""},                          // app is a value of *App, named like the package
		{"_ = app.Run()", "app.Run"},                      // the block imports the package: app is the package
		{"started := app.Run()", "app.Run"},               // app.PanicError beside it: app is the package
		{"ran := app.Run()", ""},                          // app declared from the package: a value from there on
		{"render(userList, w)", ""},                       // an excerpt that opens a block
		{"elided := app.New()", ""},                       // "// ..." leaves out func main
		{"toplevel := app.New()", "expected declaration"}, // statements at the top of a file
		{"var user = app.Must(", ""},                      // MyUser is the reader's type
		{"var none = app.Must[int]()", "app.Must"},        // too few arguments, all types known
		{"out = append(out, oldWalk(i)...)", "oldWalk is declared nowhere; the block declares walk"},
		{"fmt.Println(input)", ""},                       // input is not called: any value fits there
		{"res := helper(3, \"x\")", ""},                  // twice does not take (3, "x")
		{"result, err := SomeFunction(\"input\")", ""},   // go test calls TestSomething
		{"out, err := someCall(\"x\")", ""},              // helperOne returns nothing
		{"loaded := app.Load(\"model.bin\")", ""},        // the old half: "Should be changed to:" follows
		{"loaded := app.Load(\"model.bin\", false)", ""}, // the new half, right
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			c := mdClaim(t, ws, "README.md", tt.line)
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkContradicted(t, got, tt.want, strings.Contains)
		})
	}
}

// TestGoSnippetUpgradeGuide: an upgrade guide's blocks are checked only
// when marked as the new code, by a comment naming the module's major
// version or a label before the fence.
func TestGoSnippetUpgradeGuide(t *testing.T) {
	ws := loadWorkspace(t, "oldcode")
	ws.Scope = review.ScopeAll
	tests := []struct {
		line string // a line of the claim's block
		want string // a part of the message, "" for no verdict
	}{
		{"a := app.Start()", ""},          // "// v2" in a v3 module: the old code
		{"// v3\na := app.New()", "Wait"}, // the new code, checked
		{"a.Launch()", "Launch"},          // labelled **After**
		{"a.Begin()", ""},                 // not marked: left alone
		{"srv.Dones()", ""},               // an undeclared receiver's call in the old half
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			c := mdClaim(t, ws, "MIGRATION.md", tt.line)
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkContradicted(t, got, tt.want, strings.Contains)
		})
	}
}

// TestGoSnippetOwnNames: an Example's body uses what its test file
// imports, and a doc comment may name a value like its package.
func TestGoSnippetOwnNames(t *testing.T) {
	ws := loadWorkspace(t, "oldcode")
	ws.Scope = review.ScopeAll
	tests := []struct {
		path, symbol string
		want         string // a part of the message, "" for no verdict
	}{
		{"example_test.go", "Example_recovery", ""}, // status is the test file's import
		{"app.go", "App.Done", ""},                  // app is a value of *App here
		{"app.go", "App.Stop", "Halt"},              // no type of the package has Halt
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, tt.path, tt.symbol)
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkContradicted(t, got, tt.want, strings.Contains)
		})
	}
}

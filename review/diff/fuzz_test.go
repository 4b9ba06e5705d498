package diff

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics and that whatever it accepts
// keeps the File invariants. Seeds: the testdata fixtures, a few broken
// inputs, and crashers found earlier (testdata/fuzz/FuzzParse).
func FuzzParse(f *testing.F) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.diff"))
	if err != nil {
		f.Fatal(err)
	}
	for _, in := range inputs {
		data, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n-a\n",
		"--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n",
		"diff --git a/b b/b\nGIT binary patch\nliteral 3\nKcmYdfNCp4_i2%g_\n\n",
		"@@ -1 +1 @@\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := Parse(bytes.NewReader(data))
		if err != nil {
			if files != nil {
				t.Errorf("Parse returned files and an error")
			}
			return
		}
		checkInvariants(t, files)
	})
}

// Package proxytest writes Go modules into a module proxy directory, for
// tests that point the go command at it (GOPROXY=file://…).
package proxytest

import (
	"archive/zip"
	"os"
	"path/filepath"
	"testing"
)

// WriteModule writes path@version with files (slash-separated names and
// their contents; a go.mod is added) into the GOPROXY directory proxy. A
// go.mod given empty writes a version from before modules: no go.mod in
// its zip, "module path" served beside it.
func WriteModule(t testing.TB, proxy, path, version string, files map[string]string) {
	t.Helper()
	dir := filepath.Join(proxy, filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod := "module " + path + "\n\ngo 1.22\n"
	noGoMod := false
	if data, ok := files["go.mod"]; ok && data == "" {
		// A version from before modules: the zip has no go.mod, and
		// the proxy serves the one the go command makes up for it.
		gomod, noGoMod = "module "+path+"\n", true
	}
	for name, data := range map[string]string{
		"list":            version + "\n",
		version + ".info": `{"Version":"` + version + `","Time":"2024-01-01T00:00:00Z"}`,
		version + ".mod":  gomod,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	all := map[string]string{"go.mod": gomod}
	for name, data := range files {
		all[name] = data
	}
	if noGoMod {
		delete(all, "go.mod")
	}
	for name, data := range all {
		w, err := zw.Create(path + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

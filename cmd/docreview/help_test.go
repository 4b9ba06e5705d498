package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelpIsOutput: help asked for (--help, -h, help CMD) goes to stdout
// with exit 0, the same text either way; an unknown command for help is a
// usage error on stderr that lists the commands.
func TestHelpIsOutput(t *testing.T) {
	env := func(string) string { return "" }
	call := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), args, nil, &stdout, &stderr, env)
		return code, stdout.String(), stderr.String()
	}
	for _, cmd := range []string{"review", "action", "publish", "serve", "index", "query", "mcp", "completeness"} {
		t.Run(cmd, func(t *testing.T) {
			code, out, errOut := call(cmd, "--help")
			if code != exitOK || !strings.Contains(out, "docreview "+cmd) || errOut != "" {
				t.Fatalf("%s --help: exit %d, stdout %d bytes, stderr %q; want exit 0 and the usage on stdout", cmd, code, len(out), errOut)
			}
			code2, out2, _ := call(cmd, "-h")
			code3, out3, _ := call("help", cmd)
			if code2 != exitOK || code3 != exitOK || out2 != out || out3 != out {
				t.Errorf("-h (exit %d) and help %s (exit %d) differ from --help", code2, cmd, code3)
			}
		})
	}
	if _, out, _ := call("review", "--help"); !strings.Contains(out, "text, json, markdown, sarif or rdjson") {
		t.Errorf("review --help does not list every format:\n%s", out)
	}
	code, out, errOut := call("help", "nope")
	if code != exitError || out != "" || !strings.Contains(errOut, `unknown command "nope"`) || !strings.Contains(errOut, "review, serve") {
		t.Errorf("help nope: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = call("review", "--no-such-flag")
	if code != exitError || out != "" || !strings.Contains(errOut, "no-such-flag") {
		t.Errorf("a usage error: exit %d, stdout %q, stderr %q; want exit 2 on stderr", code, out, errOut)
	}
}

// TestServeHelpListsItsEnvironment: every variable serve's settings read
// is in 'docreview serve --help'.
func TestServeHelpListsItsEnvironment(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(t.Context(), []string{"serve", "--help"}, nil, &out, &errOut, func(string) string { return "" }); code != exitOK {
		t.Fatalf("serve --help: exit %d: %s", code, errOut.String())
	}
	read := map[string]bool{}
	getenv := func(k string) string {
		read[k] = true
		switch k {
		case "DOCREVIEW_WEBHOOK_SECRET":
			return "s"
		case "DOCREVIEW_APP_ID":
			return "1"
		case "DOCREVIEW_PRIVATE_KEY":
			return "k"
		}
		return ""
	}
	if _, err := loadServeSettings(serveSettings{dataDir: t.TempDir(), addr: "127.0.0.1:0", workers: 1, perInstall: 1}, getenv); err != nil {
		t.Fatal(err)
	}
	read["DOCREVIEW_PRIVATE_KEY_PATH"] = true // read when DOCREVIEW_PRIVATE_KEY is empty
	for k := range read {
		if !strings.Contains(out.String(), k) {
			t.Errorf("serve --help does not mention %s:\n%s", k, out.String())
		}
	}
	if !strings.Contains(out.String(), "-job-timeout") {
		t.Error("serve --help lacks --job-timeout")
	}
}

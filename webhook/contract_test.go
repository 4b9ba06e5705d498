package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/docreview/docreview/review/github/githubtest"
)

// octokitScript signs each payload with @octokit/webhooks-methods and
// verifies the Go signature of it: stdin {secret, items: [{payload, sig}]},
// stdout [{sig, ok}].
const octokitScript = `
import {sign, verify} from "@octokit/webhooks-methods";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const {secret, items} = JSON.parse(input);
const out = [];
for (const it of items) {
  out.push({sig: await sign(secret, it.payload), ok: await verify(secret, it.payload, it.sig)});
}
process.stdout.write(JSON.stringify(out));
`

// TestSignaturesAgreeWithOctokit is the cross-implementation test: real
// payloads signed by @octokit/webhooks-methods are accepted by the handler,
// and Octokit's verify accepts the Go signatures. Skips without
// `npm ci --prefix review/github/testdata/contract` unless
// DOCREVIEW_REQUIRE_CONTRACT=1.
func TestSignaturesAgreeWithOctokit(t *testing.T) {
	t.Parallel()
	dir, err := githubtest.ContractDir()
	if err != nil {
		t.Fatal(err)
	}
	githubtest.RequireContract(t, filepath.Join(dir, "node_modules", "@octokit", "webhooks-methods", "package.json"))

	type item struct {
		Event   string `json:"-"`
		Payload string `json:"payload"`
		Sig     string `json:"sig"`
		Status  int    `json:"-"`
	}
	items := []item{
		{Event: "pull_request", Payload: string(payload(t, "pull_request.opened.installation.json", nil)), Status: 202},
		{Event: "pull_request", Payload: string(prPayload(t, "synchronize", headB, 10)), Status: 202},
		{Event: "pull_request", Payload: string(prPayload(t, "reopened", headC, 20)), Status: 202},
		{Event: "issue_comment", Payload: string(commentPayload(t, "/docreview", "OWNER")), Status: 202},
		{Event: "installation", Payload: string(payload(t, "installation.created.json", nil)), Status: 200},
		{Event: "ping", Payload: `{"zen":"Non-ASCII: häagen-dazs ✓","hook_id":42}`, Status: 200},
	}
	for i := range items {
		items[i].Sig = sign([]byte(testSecret), []byte(items[i].Payload))
	}
	in, err := json.Marshal(map[string]any{"secret": testSecret, "items": items})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "node", "--input-type=module", "-e", octokitScript)
	cmd.Dir = dir // resolves @octokit/webhooks-methods from its node_modules
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var results []struct {
		Sig string `json:"sig"`
		OK  bool   `json:"ok"`
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(items) {
		t.Fatalf("node output %q: %v", out, err)
	}

	s := newServer(t, backends(t)[0], Config{})
	for i, it := range items {
		t.Run(fmt.Sprintf("%d-%s", i, it.Event), func(t *testing.T) {
			if !results[i].OK {
				t.Errorf("Octokit's verify rejected the Go signature %s", it.Sig)
			}
			if results[i].Sig != it.Sig {
				t.Errorf("signatures differ: Octokit %s, Go %s", results[i].Sig, it.Sig)
			}
			if !verifySignature([]byte(testSecret), []byte(it.Payload), results[i].Sig) {
				t.Errorf("verifySignature rejected Octokit's signature %s", results[i].Sig)
			}
			got := deliver(t, s.Handler(), delivery{event: it.Event, id: fmt.Sprintf("octokit-%d", i),
				body: []byte(it.Payload), sig: results[i].Sig})
			if got.status != it.Status {
				t.Errorf("delivery signed by Octokit: %+v, want status %d", got, it.Status)
			}
		})
	}
	// And a wrong secret is refused by both.
	bad := sign([]byte("not the secret"), []byte(items[0].Payload))
	if verifySignature([]byte(testSecret), []byte(items[0].Payload), bad) {
		t.Error("verifySignature accepted a signature made with another secret")
	}
}

// Package scripted is an OpenAI-compatible chat completions server for
// tests: it replays conversations written in small JSON transcripts and
// checks every request against them.
//
// A transcript file holds conversations. A request belongs to the one
// conversation whose Match substring occurs in its first user message
// (more than one, or none, fails the test). Its turn is the number of
// assistant messages in the request, so the server keeps no conversation
// state; each request to a turn is one attempt, and attempt n gets the
// turn's n-th response (a client retrying after a 429 gets the next one).
//
//	{"conversations": [{
//	  "name": "loop", "match": "id=\"c1\"",
//	  "turns": [
//	    {"expect": {"tools": true, "response_format": "json_schema"},
//	     "responses": [
//	       {"status": 429, "headers": {"Retry-After": "1"}, "error": {"message": "slow down"}},
//	       {"tool_calls": [{"id": "call_1", "name": "search", "arguments": {"query": "Hold"}}]}]},
//	    {"expect": {"last_message_contains": ["store.go"]},
//	     "responses": [{"verdict": {"label": "consistent", "message": "", "suggestion": "",
//	                                 "confidence": 1, "citations": []}}]}]}]}
//
// Every request body and every response body is given to the server's
// [Validator] (OpenAI's published contract); a violation fails the test.
package scripted

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docreview/docreview/review/judge/judgetest/openaispec"
)

// Validator checks traffic against the OpenAI API contract.
type Validator interface {
	// ValidateRequest checks a POST /chat/completions request body.
	ValidateRequest(body []byte) error
	// ValidateResponse checks a chat completion response or error body.
	ValidateResponse(status int, body []byte) error
}

// Transcript is the content of one transcript file.
type Transcript struct {
	Conversations []Conversation `json:"conversations"`
}

// Conversation is the scripted exchange for one claim (or one group of
// claims).
type Conversation struct {
	// Name identifies the conversation in failures and in
	// [Server.RequestsFor].
	Name string `json:"name"`
	// Match is a substring of the first user message that identifies the
	// conversation.
	Match string `json:"match"`
	// Optional conversations need not be played to the end.
	Optional bool `json:"optional"`
	// Default makes the conversation answer every request that no other
	// conversation matches (Match is then ignored), for any number of
	// claims: each turn's last response answers every attempt past the
	// scripted ones. At most one conversation may be the default.
	Default bool `json:"default"`
	// Turns are indexed by the number of assistant messages in a request.
	Turns []Turn `json:"turns"`
}

// Turn is one step of a conversation.
type Turn struct {
	// Expect is checked on every attempt of the turn.
	Expect Expect `json:"expect"`
	// Responses are consumed one per attempt.
	Responses []Response `json:"responses"`
}

// Expect lists checks on a request; zero fields check nothing.
type Expect struct {
	// Tools, when set, requires tools to be present (true) or absent.
	Tools *bool `json:"tools"`
	// ResponseFormat is the required response_format.type
	// ("json_schema", "json_object"); "none" requires none.
	ResponseFormat string `json:"response_format"`
	// ToolChoice is the required tool_choice when it is a string ("none").
	ToolChoice string `json:"tool_choice"`
	// LastMessageContains are substrings of the last message's content.
	LastMessageContains []string `json:"last_message_contains"`
	// Contains and NotContains are substrings of the request's messages
	// (all contents joined).
	Contains    []string `json:"contains"`
	NotContains []string `json:"not_contains"`
}

// Response is one scripted answer.
type Response struct {
	// Expect adds checks for this attempt only.
	Expect Expect `json:"expect"`
	// Status is the HTTP status; 0 means 200.
	Status int `json:"status"`
	// Headers are added to the response (Retry-After).
	Headers map[string]string `json:"headers"`
	// DelayMS delays the answer (ended early when the client goes away).
	DelayMS int `json:"delay_ms"`
	// Body, when set, is sent verbatim.
	Body *string `json:"body"`
	// Error makes an OpenAI error body {"error": {...}}.
	Error *ErrorBody `json:"error"`
	// Content is the assistant message's content, verbatim.
	Content *string `json:"content"`
	// Verdict is marshalled to JSON as the assistant message's content.
	Verdict json.RawMessage `json:"verdict"`
	// EachClaim, for a request that judges several claims (a grouped
	// conversation: the first user message holds several <claim id="...">
	// elements), answers {"verdicts": [...]} with this verdict for every
	// claim id, claim_id filled in; for a single claim it answers the
	// verdict itself. Default conversations use it to answer any request.
	EachClaim json.RawMessage `json:"each_claim"`
	// ToolCalls are the assistant message's tool calls.
	ToolCalls []ToolCall `json:"tool_calls"`
	// Refusal is the assistant message's refusal.
	Refusal string `json:"refusal"`
	// Usage overrides the token counts; by default prompt_tokens is the
	// prompt's characters / 4 (see promptChars) and completion_tokens the
	// answer's, the usual rule of thumb for English and code.
	Usage *Usage `json:"usage"`
}

// ErrorBody is an OpenAI error object.
type ErrorBody struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Param   string `json:"param"`
	Code    string `json:"code"`
}

// ToolCall is one function call of a scripted assistant message.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is sent as its JSON text, or verbatim when it is a JSON
	// string.
	Arguments json.RawMessage `json:"arguments"`
}

// Usage is the usage object of a completion.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Server is a running scripted endpoint.
type Server struct {
	// URL is the base URL to configure the client with (ends in "/v1").
	URL string
	// NoKey stands for a local server that needs no API key: requests
	// must then come without an Authorization header. By default every
	// request must carry a bearer token, as OpenAI's API requires.
	NoKey bool

	t        testing.TB
	v        Validator
	convs    []Conversation
	mu       sync.Mutex
	attempts map[[2]int]int
	requests map[string]int
	total    int
}

// Spec is the [Validator] of OpenAI's published contract
// ([openaispec.ValidateRequest], [openaispec.ValidateResponse]).
type Spec struct{}

// ValidateRequest calls [openaispec.ValidateRequest].
func (Spec) ValidateRequest(body []byte) error { return openaispec.ValidateRequest(body) }

// ValidateResponse calls [openaispec.ValidateResponse].
func (Spec) ValidateResponse(status int, body []byte) error {
	return openaispec.ValidateResponse(status, body)
}

// New is [NewWith] with the [Spec] validator: every exchange is checked
// against OpenAI's contract.
func New(t testing.TB, files ...string) *Server {
	t.Helper()
	return NewWith(t, Spec{}, files...)
}

// NewWith loads the transcript files, starts the server and registers its
// shutdown and the check that every non-optional conversation was played
// to its last turn with t.Cleanup. v may be nil (no contract checks).
func NewWith(t testing.TB, v Validator, files ...string) *Server {
	t.Helper()
	s := &Server{t: t, v: v, attempts: map[[2]int]int{}, requests: map[string]int{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("scripted: %v", err)
		}
		var tr Transcript
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&tr); err != nil {
			t.Fatalf("scripted: transcript %s: %v", f, err)
		}
		s.convs = append(s.convs, tr.Conversations...)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", s.handle)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("scripted: unexpected request %s %s", r.Method, r.URL.Path)
		http.Error(w, "not scripted", http.StatusNotFound)
	})
	hs := httptest.NewServer(mux)
	s.URL = hs.URL + "/v1"
	t.Cleanup(func() {
		hs.Close()
		s.checkPlayed()
	})
	return s
}

// Requests returns how many chat completion requests the server answered.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// RequestsFor returns how many requests the named conversation received.
func (s *Server) RequestsFor(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[name]
}

func (s *Server) checkPlayed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range s.convs {
		if c.Optional {
			continue
		}
		if last := len(c.Turns) - 1; last >= 0 && s.attempts[[2]int{i, last}] == 0 {
			s.t.Errorf("scripted: conversation %q never reached its turn %d", c.Name, last)
		}
	}
}

// request is the part of a chat completion request the server reads.
type request struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools          []json.RawMessage `json:"tools"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	ToolChoice json.RawMessage `json:"tool_choice"`
}

// text returns a message content as plain text: the string, or its text
// parts joined.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	t := s.t
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Errorf("scripted: read request: %v", err)
		return
	}
	if r.Method != http.MethodPost {
		t.Errorf("scripted: %s %s, want POST", r.Method, r.URL.Path)
	}
	s.mu.Lock()
	noKey := s.NoKey
	s.mu.Unlock()
	switch auth := r.Header.Get("Authorization"); {
	case noKey && auth != "":
		t.Errorf("scripted: request with an Authorization header %q to a server that needs no key", auth)
	case !noKey && !strings.HasPrefix(auth, "Bearer "):
		t.Errorf("scripted: request without a bearer token")
	}
	if s.v != nil {
		if err := s.v.ValidateRequest(body); err != nil {
			t.Errorf("scripted: request violates the OpenAI contract: %v\n%s", err, body)
		}
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		s.fail(w, fmt.Sprintf("request is not JSON: %v", err))
		return
	}
	first, all := "", ""
	assistants := 0
	for _, m := range req.Messages {
		c := text(m.Content)
		all += c + "\n"
		if m.Role == "user" && first == "" {
			first = c
		}
		if m.Role == "assistant" {
			assistants++
		}
	}
	ci := -1
	for i, c := range s.convs {
		if c.Match != "" && strings.Contains(first, c.Match) {
			if ci >= 0 {
				s.fail(w, fmt.Sprintf("request matches conversations %q and %q; first user message:\n%s", s.convs[ci].Name, c.Name, first))
				return
			}
			ci = i
		}
	}
	if ci < 0 {
		for i, c := range s.convs {
			if c.Default {
				ci = i
			}
		}
	}
	if ci < 0 {
		s.fail(w, "no conversation matches the request; first user message:\n"+first)
		return
	}
	conv := s.convs[ci]
	if assistants >= len(conv.Turns) {
		s.fail(w, fmt.Sprintf("conversation %q has %d turns; request has %d assistant messages", conv.Name, len(conv.Turns), assistants))
		return
	}
	turn := conv.Turns[assistants]
	s.mu.Lock()
	attempt := s.attempts[[2]int{ci, assistants}]
	s.attempts[[2]int{ci, assistants}]++
	s.requests[conv.Name]++
	s.total++
	s.mu.Unlock()
	if conv.Default && len(turn.Responses) > 0 {
		attempt = min(attempt, len(turn.Responses)-1)
	}
	if attempt >= len(turn.Responses) {
		s.fail(w, fmt.Sprintf("conversation %q turn %d: attempt %d, but only %d responses are scripted", conv.Name, assistants, attempt+1, len(turn.Responses)))
		return
	}
	resp := turn.Responses[attempt]
	where := fmt.Sprintf("conversation %q turn %d attempt %d", conv.Name, assistants, attempt+1)
	last := ""
	if n := len(req.Messages); n > 0 {
		last = text(req.Messages[n-1].Content)
	}
	for _, e := range []Expect{turn.Expect, resp.Expect} {
		for _, p := range check(e, req, last, all) {
			t.Errorf("scripted: %s: %s", where, p)
		}
	}
	if resp.DelayMS > 0 {
		select {
		case <-time.After(time.Duration(resp.DelayMS) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
	status, out := s.render(resp, req.Model, body, first)
	if s.v != nil {
		if err := s.v.ValidateResponse(status, out); err != nil {
			t.Errorf("scripted: %s: response violates the OpenAI contract: %v\n%s", where, err, out)
		}
	}
	for k, v := range resp.Headers {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// check returns the failed expectations of e.
func check(e Expect, req request, last, all string) []string {
	var out []string
	if e.Tools != nil && *e.Tools != (len(req.Tools) > 0) {
		out = append(out, fmt.Sprintf("tools present = %v, want %v", len(req.Tools) > 0, *e.Tools))
	}
	if e.ResponseFormat != "" {
		got := "none"
		if req.ResponseFormat != nil {
			got = req.ResponseFormat.Type
		}
		if got != e.ResponseFormat {
			out = append(out, fmt.Sprintf("response_format %q, want %q", got, e.ResponseFormat))
		}
	}
	if e.ToolChoice != "" {
		var got string
		_ = json.Unmarshal(req.ToolChoice, &got)
		if got != e.ToolChoice {
			out = append(out, fmt.Sprintf("tool_choice %s, want %q", req.ToolChoice, e.ToolChoice))
		}
	}
	for _, sub := range e.LastMessageContains {
		if !strings.Contains(last, sub) {
			out = append(out, fmt.Sprintf("last message lacks %q:\n%s", sub, last))
		}
	}
	for _, sub := range e.Contains {
		if !strings.Contains(all, sub) {
			out = append(out, fmt.Sprintf("messages lack %q", sub))
		}
	}
	for _, sub := range e.NotContains {
		if strings.Contains(all, sub) {
			out = append(out, fmt.Sprintf("messages contain %q", sub))
		}
	}
	return out
}

// render builds the status and body of a scripted response.
func (s *Server) render(r Response, model string, reqBody []byte, first string) (int, []byte) {
	status := r.Status
	if status == 0 {
		status = http.StatusOK
	}
	if r.Body != nil {
		return status, []byte(*r.Body)
	}
	if r.Error != nil {
		e := map[string]any{"message": r.Error.Message, "type": r.Error.Type, "param": nil, "code": nil}
		if e["type"] == "" {
			e["type"] = "invalid_request_error"
		}
		if r.Error.Param != "" {
			e["param"] = r.Error.Param
		}
		if r.Error.Code != "" {
			e["code"] = r.Error.Code
		}
		out, _ := json.Marshal(map[string]any{"error": e})
		return status, out
	}
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	answer := ""
	switch {
	case r.Content != nil:
		msg["content"], answer = *r.Content, *r.Content
	case len(r.Verdict) > 0:
		var b bytes.Buffer
		_ = json.Compact(&b, r.Verdict)
		msg["content"], answer = b.String(), b.String()
	case len(r.EachClaim) > 0:
		answer = eachClaim(r.EachClaim, first)
		msg["content"] = answer
	}
	if r.Refusal != "" {
		msg["refusal"] = r.Refusal
	}
	finish := "stop"
	if len(r.ToolCalls) > 0 {
		finish = "tool_calls"
		var calls []map[string]any
		for _, tc := range r.ToolCalls {
			args := string(tc.Arguments)
			var str string
			if json.Unmarshal(tc.Arguments, &str) == nil {
				args = str
			} else {
				var b bytes.Buffer
				if json.Compact(&b, tc.Arguments) == nil {
					args = b.String()
				}
			}
			answer += tc.Name + args
			calls = append(calls, map[string]any{"id": tc.ID, "type": "function",
				"function": map[string]any{"name": tc.Name, "arguments": args}})
		}
		msg["tool_calls"] = calls
	}
	u := Usage{PromptTokens: (promptChars(reqBody) + 3) / 4, CompletionTokens: (len(answer) + 3) / 4}
	if r.Usage != nil {
		u = *r.Usage
	}
	out, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-scripted", "object": "chat.completion", "created": 1700000000, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish, "logprobs": nil}},
		"usage": map[string]any{"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens,
			"total_tokens": u.PromptTokens + u.CompletionTokens},
	})
	return status, out
}

// promptChars counts what a model reads of a request: the text of every
// message (tool calls' names and arguments included), and the tools and
// response format as compact JSON. JSON string escapes count as the
// characters they stand for, not as the bytes of the body. A body that
// does not decode counts whole.
func promptChars(body []byte) int {
	var req struct {
		Messages []struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools          json.RawMessage `json:"tools"`
		ResponseFormat json.RawMessage `json:"response_format"`
	}
	if json.Unmarshal(body, &req) != nil {
		return len(body)
	}
	n := 0
	for _, m := range req.Messages {
		n += len(m.Role) + len(text(m.Content))
		for _, tc := range m.ToolCalls {
			n += len(tc.Function.Name) + len(tc.Function.Arguments)
		}
	}
	for _, raw := range []json.RawMessage{req.Tools, req.ResponseFormat} {
		var b bytes.Buffer
		if len(raw) > 0 && json.Compact(&b, raw) == nil {
			n += b.Len()
		}
	}
	return n
}

// claimIDRE finds the claim ids of a grouped request's first message.
var claimIDRE = regexp.MustCompile(`<claim id="([^"]+)"`)

// eachClaim renders verdict for every claim of the first user message: the
// verdict itself for one claim, {"verdicts": [...]} with claim_id set for
// several.
func eachClaim(verdict json.RawMessage, first string) string {
	ids := claimIDRE.FindAllStringSubmatch(first, -1)
	if len(ids) < 2 {
		var b bytes.Buffer
		_ = json.Compact(&b, verdict)
		return b.String()
	}
	var list []map[string]any
	for _, m := range ids {
		var v map[string]any
		_ = json.Unmarshal(verdict, &v)
		v["claim_id"] = m[1]
		list = append(list, v)
	}
	out, _ := json.Marshal(map[string]any{"verdicts": list})
	return string(out)
}

// fail reports an unscripted request and answers it with a 400 error, which
// the client does not retry.
func (s *Server) fail(w http.ResponseWriter, msg string) {
	s.t.Errorf("scripted: %s", msg)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	out, _ := json.Marshal(map[string]any{"error": map[string]any{"message": "scripted: " + msg, "type": "invalid_request_error", "param": nil, "code": nil}})
	_, _ = w.Write(out)
}

package openaispec

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"
)

// Responses shaped like the real API's (extra fields the 2.3.0 spec does not list, such as
// annotations and prompt_tokens_details, are what the live API sends today and must pass).
const (
	toolCallResponse = `{
  "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
  "object": "chat.completion",
  "created": 1741570283,
  "model": "gpt-4.1-mini-2025-04-14",
  "choices": [{
    "index": 0,
    "message": {
      "role": "assistant",
      "content": null,
      "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "search_docs", "arguments": "{\"query\":\"Remove\"}"}},
        {"id": "call_2", "type": "function", "function": {"name": "search_docs", "arguments": "{\"query\":\"Delete\"}"}}
      ],
      "refusal": null,
      "annotations": []
    },
    "logprobs": null,
    "finish_reason": "tool_calls"
  }],
  "usage": {
    "prompt_tokens": 412, "completion_tokens": 38, "total_tokens": 450,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}
  },
  "service_tier": "default",
  "system_fingerprint": "fp_6ec83003ad"
}`
	contentResponse = `{
  "id": "chatcmpl-B9MHEd0Q3mEH4GgXXJ3x6S4a9d2Zt",
  "object": "chat.completion",
  "created": 1741570284,
  "model": "gpt-4.1-mini-2025-04-14",
  "choices": [{
    "index": 0,
    "message": {"role": "assistant", "content": "{\"label\":\"contradicted\",\"message\":\"Remove was renamed to Delete\"}", "refusal": null, "annotations": []},
    "logprobs": null,
    "finish_reason": "stop"
  }],
  "usage": {"prompt_tokens": 530, "completion_tokens": 21, "total_tokens": 551},
  "system_fingerprint": "fp_6ec83003ad"
}`
	rateLimitBody = `{
  "error": {
    "message": "Rate limit reached for gpt-4.1-mini in organization org-abc on tokens per min (TPM): Limit 200000, Used 199500, Requested 900. Please try again in 120ms.",
    "type": "tokens",
    "param": null,
    "code": "rate_limit_exceeded"
  }
}`
)

// capture is an httptest stand-in for the API: it records each request body and answers with
// the next scripted response, checking that response against the spec first.
type capture struct {
	t         *testing.T
	mu        sync.Mutex
	bodies    [][]byte
	responses []string
}

func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		c.t.Errorf("reading request: %v", err)
	}
	c.mu.Lock()
	c.bodies = append(c.bodies, body)
	var resp string
	if len(c.responses) > 0 {
		resp, c.responses = c.responses[0], c.responses[1:]
	}
	c.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		c.t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
	}
	if err := ValidateResponse(http.StatusOK, []byte(resp)); err != nil {
		c.t.Errorf("scripted response: %v", err)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, resp)
}

func newClient(t *testing.T, responses ...string) (openai.Client, *capture) {
	t.Helper()
	c := &capture{t: t, responses: responses}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	client := openai.NewClient(
		option.WithBaseURL(srv.URL+"/v1/"),
		option.WithAPIKey("test-key"),
		option.WithMaxRetries(0),
	)
	return client, c
}

// reviewSchema is a strict structured-output schema like the judge's verdict.
var reviewSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"label":      map[string]any{"type": "string", "enum": []string{"consistent", "contradicted", "incomplete"}},
		"message":    map[string]any{"type": "string"},
		"suggestion": map[string]any{"type": []string{"string", "null"}},
	},
	"required":             []string{"label", "message", "suggestion"},
	"additionalProperties": false,
}

func searchTool() openai.ChatCompletionToolParam {
	return openai.ChatCompletionToolParam{
		Function: openai.FunctionDefinitionParam{
			Name:        "search_docs",
			Description: openai.String("Search the repository documentation index"),
			Parameters: openai.FunctionParameters{
				"type":                 "object",
				"properties":           map[string]any{"query": map[string]any{"type": "string"}},
				"required":             []string{"query"},
				"additionalProperties": false,
			},
			Strict: openai.Bool(true),
		},
	}
}

// TestOpenAIGoRequestsValidate sends real openai-go v1.12.0 requests to the stand-in and checks
// every body the client put on the wire against CreateChatCompletionRequest.
func TestOpenAIGoRequestsValidate(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	t.Run("tool loop with strict json_schema", func(t *testing.T) {
		client, c := newClient(t, toolCallResponse, contentResponse)
		params := openai.ChatCompletionNewParams{
			Model: "gpt-4.1-mini",
			Messages: []openai.ChatCompletionMessageParamUnion{
				openai.SystemMessage("You review documentation diffs."),
				openai.UserMessage("Review this claim: Remove deletes the item immediately."),
			},
			Tools:             []openai.ChatCompletionToolParam{searchTool()},
			ToolChoice:        openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")},
			ParallelToolCalls: openai.Bool(true),
			ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{
				OfJSONSchema: &openai.ResponseFormatJSONSchemaParam{
					JSONSchema: openai.ResponseFormatJSONSchemaJSONSchemaParam{
						Name: "doc_review", Schema: reviewSchema, Strict: openai.Bool(true),
					},
				},
			},
			Temperature:         openai.Float(0),
			MaxCompletionTokens: openai.Int(1024),
			Seed:                openai.Int(7),
		}
		comp, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			t.Fatalf("first turn: %v", err)
		}
		msg := comp.Choices[0].Message
		if len(msg.ToolCalls) != 2 {
			t.Fatalf("got %d tool calls, want 2", len(msg.ToolCalls))
		}
		params.Messages = append(params.Messages, msg.ToParam())
		for _, tc := range msg.ToolCalls {
			params.Messages = append(params.Messages, openai.ToolMessage("docs/api.md:12: Delete removes the item", tc.ID))
		}
		comp, err = client.Chat.Completions.New(ctx, params)
		if err != nil {
			t.Fatalf("second turn: %v", err)
		}
		if comp.Usage.TotalTokens != 551 {
			t.Errorf("usage.total_tokens = %d, want 551", comp.Usage.TotalTokens)
		}
		if len(c.bodies) != 2 {
			t.Fatalf("captured %d requests, want 2", len(c.bodies))
		}
		wantIn := [][]string{
			{`"strict":true`, `"type":"json_schema"`, `"tool_choice":"auto"`, `"parallel_tool_calls":true`, `"max_completion_tokens":1024`, `"seed":7`, `"temperature":0`},
			{`"role":"assistant"`, `"tool_calls":[{"id":"call_1"`, `"tool_call_id":"call_2"`, `"role":"tool"`},
		}
		for i, body := range c.bodies {
			for _, want := range wantIn[i] {
				if !strings.Contains(string(body), want) {
					t.Errorf("request %d lacks %s: %s", i+1, want, body)
				}
			}
			if err := ValidateRequest(body); err != nil {
				t.Errorf("request %d: %v\nbody: %s", i+1, err, body)
			}
		}
	})

	t.Run("json_object with max_tokens", func(t *testing.T) {
		client, c := newClient(t, contentResponse)
		_, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
			Model: "llama3.1:8b",
			Messages: []openai.ChatCompletionMessageParamUnion{
				openai.SystemMessage("Answer with a JSON object."),
				openai.UserMessage("Judge this claim."),
			},
			ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{
				OfJSONObject: &openai.ResponseFormatJSONObjectParam{},
			},
			MaxTokens:   openai.Int(800),
			Temperature: openai.Float(0.2),
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.bodies) != 1 || !strings.Contains(string(c.bodies[0]), `"response_format":{"type":"json_object"}`) {
			t.Fatalf("captured %q, want one json_object request", c.bodies)
		}
		if err := ValidateRequest(c.bodies[0]); err != nil {
			t.Errorf("%v\nbody: %s", err, c.bodies[0])
		}
	})
}

func TestValidateRequestRejects(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string // substrings of the error
	}{
		{
			name: "missing model",
			body: `{"messages":[{"role":"user","content":"hi"}]}`,
			want: []string{"missing property 'model'"},
		},
		{
			name: "unknown role",
			body: `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"robot","content":"beep"}]}`,
			want: []string{"at '/messages/1/role': value must be one of 'system', 'user', 'assistant', 'tool', 'function'"},
		},
		{
			name: "tool message without tool_call_id",
			body: `{"model":"m","messages":[{"role":"user","content":"q"},{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","content":"r"}]}`,
			want: []string{"at '/messages/2': missing property 'tool_call_id'"},
		},
		{
			name: "assistant tool call without arguments",
			body: `{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f"}}]}]}`,
			want: []string{"at '/messages/0/tool_calls/0/function': missing property 'arguments'"},
		},
		{
			name: "empty messages",
			body: `{"model":"m","messages":[]}`,
			want: []string{"at '/messages': minItems"},
		},
		{
			name: "unknown response_format type",
			body: `{"model":"m","messages":[{"role":"user","content":"q"}],"response_format":{"type":"xml"}}`,
			want: []string{"at '/response_format/type': value must be one of 'text', 'json_object', 'json_schema'"},
		},
		{
			name: "json_schema without name",
			body: `{"model":"m","messages":[{"role":"user","content":"q"}],"response_format":{"type":"json_schema","json_schema":{"schema":{}}}}`,
			want: []string{"at '/response_format/json_schema': missing property 'name'"},
		},
		{
			name: "temperature out of range",
			body: `{"model":"m","messages":[{"role":"user","content":"q"}],"temperature":3}`,
			want: []string{"at '/temperature'", "maximum"},
		},
		{
			name: "tool without function",
			body: `{"model":"m","messages":[{"role":"user","content":"q"}],"tools":[{"type":"function"}]}`,
			want: []string{"at '/tools/0': missing property 'function'"},
		},
		{
			name: "bad tool_choice",
			body: `{"model":"m","messages":[{"role":"user","content":"q"}],"tool_choice":"always"}`,
			want: []string{"/tool_choice"},
		},
		{
			name: "not JSON",
			body: `{"model":`,
			want: []string{"request body is not JSON"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateRequest([]byte(tt.body))
			if err == nil {
				t.Fatal("ValidateRequest = nil, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestValidateResponse(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   []string // substrings of the error; none means valid
	}{
		{name: "tool calls", status: 200, body: toolCallResponse},
		{name: "content", status: 200, body: contentResponse},
		{name: "spec example", status: 200, body: `{"id":"chatcmpl-123","object":"chat.completion","created":1677652288,"model":"gpt-4o-mini","system_fingerprint":"fp_44709d6fcb","choices":[{"index":0,"message":{"role":"assistant","content":"Hello","refusal":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":12,"total_tokens":21,"completion_tokens_details":{"reasoning_tokens":0}}}`},
		{name: "rate limited", status: 429, body: rateLimitBody},
		{name: "server error", status: 500, body: `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`},
		{
			name: "without choices", status: 200,
			body: `{"id":"x","object":"chat.completion","created":1,"model":"m"}`,
			want: []string{"response body (status 200) does not match CreateChatCompletionResponse", "missing property 'choices'"},
		},
		{
			name: "tool call without id", status: 200,
			body: strings.Replace(toolCallResponse, `"id": "call_1", `, "", 1),
			want: []string{"at '/choices/0/message/tool_calls/0': missing property 'id'"},
		},
		{
			name: "unknown finish_reason", status: 200,
			body: strings.Replace(contentResponse, `"finish_reason": "stop"`, `"finish_reason": "done"`, 1),
			want: []string{"at '/choices/0/finish_reason'"},
		},
		{
			name: "usage without total_tokens", status: 200,
			body: strings.Replace(contentResponse, `, "total_tokens": 551`, "", 1),
			want: []string{"at '/usage': missing property 'total_tokens'"},
		},
		{
			name: "error body without message", status: 400,
			body: `{"error":{"type":"invalid_request_error","param":"messages","code":null}}`,
			want: []string{"does not match ErrorResponse", "at '/error': missing property 'message'"},
		},
		{
			name: "completion sent with 429", status: 429, body: contentResponse,
			want: []string{"missing property 'error'"},
		},
		{
			name: "redirect", status: 302, body: `{}`,
			want: []string{"spec describes no body for this status"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateResponse(tt.status, []byte(tt.body))
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("ValidateResponse = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatal("ValidateResponse = nil, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestTranslate(t *testing.T) {
	tests := []struct {
		name string
		in   string // OpenAPI 3.0 schema, YAML
		want string // JSON Schema 2020-12, JSON
	}{
		{
			name: "nullable type",
			in:   "type: string\nnullable: true\ndescription: d",
			want: `{"type":["string","null"],"description":"d"}`,
		},
		{
			name: "nullable enum gains null",
			in:   "type: string\nenum: [auto, default]\nnullable: true",
			want: `{"type":["string","null"],"enum":["auto","default",null]}`,
		},
		{
			name: "nullable false is dropped",
			in:   "type: string\nnullable: false",
			want: `{"type":"string"}`,
		},
		{
			name: "nullable oneOf is wrapped",
			in:   "nullable: true\noneOf:\n  - type: string\n  - type: array\n    items: {type: string, nullable: true}",
			want: `{"anyOf":[{"type":"null"},{"oneOf":[{"type":"string"},{"type":"array","items":{"type":["string","null"]}}]}]}`,
		},
		{
			name: "extensions, example and discriminator dropped; refs rewritten",
			in:   "x-oaiExpandable: true\nexample: 1\ndiscriminator: {propertyName: type}\nproperties:\n  a: {$ref: '#/components/schemas/A', x-oaiTypeLabel: map}",
			want: `{"properties":{"a":{"$ref":"#/$defs/A"}}}`,
		},
		{
			name: "boolean exclusiveMinimum",
			in:   "type: number\nminimum: 0\nexclusiveMinimum: true",
			want: `{"type":"number","exclusiveMinimum":0}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in, want any
			if err := yaml.Unmarshal([]byte(tt.in), &in); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			got, err := translate(in)
			if err != nil {
				t.Fatal(err)
			}
			// Compare through JSON so YAML and JSON number types agree.
			raw, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			var gotJSON any
			if err := json.Unmarshal(raw, &gotJSON); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, gotJSON); diff != "" {
				t.Errorf("translate (-want +got):\n%s", diff)
			}
		})
	}

	if _, err := translate(map[string]any{"$ref": "other.yaml#/X"}); err == nil {
		t.Error("translate accepted a $ref outside #/components/schemas/")
	}
}

// TestSpecIsClosed checks that the vendored file holds exactly the $ref closure of the three
// entry points (nothing dangling, nothing extra) and that the README names every schema kept.
func TestSpecIsClosed(t *testing.T) {
	var spec struct {
		Components struct {
			Schemas map[string]any `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(specYAML, &spec); err != nil {
		t.Fatal(err)
	}
	schemas := spec.Components.Schemas
	reached := map[string]bool{}
	queue := []string{RequestSchema, ResponseSchema, ErrorSchema}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if reached[name] {
			continue
		}
		reached[name] = true
		s, ok := schemas[name]
		if !ok {
			t.Errorf("schema %s is referenced but not vendored", name)
			continue
		}
		queue = append(queue, refs(s)...)
	}
	for name := range schemas {
		if !reached[name] {
			t.Errorf("schema %s is vendored but unreachable from the entry points", name)
		}
	}

	readme, err := os.ReadFile("spec/README.md")
	if err != nil {
		t.Fatal(err)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range schemas {
			if !yield(n) {
				return
			}
		}
	})
	for _, n := range names {
		if !regexp.MustCompile("`" + n + "`").Match(readme) {
			t.Errorf("spec/README.md does not list %s", n)
		}
	}
	if !strings.Contains(string(readme), "578000861507cd19620e3f1092adf62303757c0a") {
		t.Error("spec/README.md does not record the source commit")
	}
}

// refs returns the component names a schema refers to.
func refs(v any) []string {
	var out []string
	switch s := v.(type) {
	case map[string]any:
		for k, sub := range s {
			if r, ok := sub.(string); ok && k == "$ref" {
				out = append(out, strings.TrimPrefix(r, componentRefPrefix))
				continue
			}
			out = append(out, refs(sub)...)
		}
	case []any:
		for _, sub := range s {
			out = append(out, refs(sub)...)
		}
	}
	return out
}

func TestValidateRequestAccepts(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"assistant with null content and tool calls", `{"model":"m","messages":[{"role":"user","content":"q"},{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","content":"r","tool_call_id":"call_1"}]}`},
		{"content parts", `{"model":"m","messages":[{"role":"system","content":[{"type":"text","text":"s"}]},{"role":"user","content":[{"type":"text","text":"q"}]},{"role":"tool","content":[{"type":"text","text":"r"}],"tool_call_id":"c"}]}`},
		{"named tool choice, stop list, nulls", `{"model":"m","messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"},"strict":null}}],"tool_choice":{"type":"function","function":{"name":"f"}},"stop":["\n"],"temperature":null,"max_tokens":null,"seed":-1,"service_tier":null}`},
		{"text response format", `{"model":"m","messages":[{"role":"user","content":"q"}],"response_format":{"type":"text"}}`},
		{"json_schema without schema or strict", `{"model":"m","messages":[{"role":"user","content":"q"}],"response_format":{"type":"json_schema","json_schema":{"name":"n"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := ValidateRequest([]byte(tt.body)); err != nil {
				t.Errorf("ValidateRequest = %v, want nil", err)
			}
		})
	}
}

func TestApplyErrata(t *testing.T) {
	defect := func() map[string]any {
		return map[string]any{"ResponseFormatJsonSchema": map[string]any{"properties": map[string]any{
			"json_schema": map[string]any{
				"properties": map[string]any{"name": map[string]any{"type": "string"}},
				"required":   []any{"type", "name"},
			},
		}}}
	}
	s := defect()
	if err := applyErrata(s); err != nil {
		t.Fatalf("applyErrata on the defective schema: %v", err)
	}
	got := s["ResponseFormatJsonSchema"].(map[string]any)["properties"].(map[string]any)["json_schema"].(map[string]any)["required"]
	if diff := cmp.Diff([]any{"name"}, got); diff != "" {
		t.Errorf("required after erratum (-want +got):\n%s", diff)
	}
	// A re-vendored, fixed schema must make the stale erratum fail loudly.
	if err := applyErrata(s); err == nil || !strings.Contains(err.Error(), "remove applyErrata") {
		t.Errorf("applyErrata on a fixed schema = %v, want an error asking to remove it", err)
	}
}

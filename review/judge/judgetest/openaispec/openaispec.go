// Package openaispec checks chat-completions traffic against OpenAI's own contract: a verbatim,
// vendored subset of the OpenAPI description in github.com/openai/openai-openapi (see
// spec/README.md for the source commit and exactly what was copied).
//
// It exists for tests: the httptest server that stands in for an OpenAI-compatible API calls
// ValidateRequest on every body it receives and ValidateResponse on every body it is about to
// send, so a scripted transcript cannot drift from what the real API accepts and returns.
//
// The vendored file stays in its OpenAPI 3.0 form. At first use it is corrected for one known
// upstream error (see applyErrata), translated to JSON Schema draft 2020-12 (see translate) and
// compiled once with github.com/santhosh-tekuri/jsonschema/v6. Fields the spec does not describe
// are accepted (its schemas leave additionalProperties open); enum values it does not list are
// not.
package openaispec

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// specYAML is the vendored subset of openai-openapi's openapi.yaml.
//
//go:embed spec/chat.openapi.yaml
var specYAML []byte

// Names of the component schemas the validators use, as spelled in the spec.
const (
	RequestSchema  = "CreateChatCompletionRequest"
	ResponseSchema = "CreateChatCompletionResponse"
	ErrorSchema    = "ErrorResponse"
)

// resourceURL is the made-up location the translated document is registered under; nothing is
// fetched from it.
const resourceURL = "https://docreview.invalid/openaispec/chat.schema.json"

// compiledSchemas holds the three compiled entry points.
type compiledSchemas struct {
	request, response, errorBody *jsonschema.Schema
}

// compiled loads, translates and compiles the vendored spec on first use and returns the same
// result (or the same error) on every later call.
var compiled = sync.OnceValues(compile)

// ValidateRequest reports whether body is a JSON document valid against the spec's
// CreateChatCompletionRequest schema (the body of POST /chat/completions). It returns nil when it
// is; otherwise an error that starts with "request body" and lists each violation as
// "at '/json/pointer': reason" (for example "at '/messages/2': missing property 'tool_call_id'").
// Body that is not exactly one JSON value is an error too.
func ValidateRequest(body []byte) error {
	s, err := compiled()
	if err != nil {
		return err
	}
	return validate("request body", RequestSchema, s.request, body)
}

// ValidateResponse reports whether body is what the API may send with HTTP status status:
// for 200–299 a CreateChatCompletionResponse, for 400–599 an ErrorResponse
// ({"error": {"message", "type", "param", "code"}}). Any other status is an error, since the spec
// describes no body for it. Errors start with "response body (status N)" and list each violation
// as "at '/json/pointer': reason".
func ValidateResponse(status int, body []byte) error {
	s, err := compiled()
	if err != nil {
		return err
	}
	what := fmt.Sprintf("response body (status %d)", status)
	switch {
	case status >= 200 && status <= 299:
		return validate(what, ResponseSchema, s.response, body)
	case status >= 400 && status <= 599:
		return validate(what, ErrorSchema, s.errorBody, body)
	default:
		return fmt.Errorf("%s: the spec describes no body for this status", what)
	}
}

// validate decodes body and checks it against sch, formatting violations for humans.
func validate(what, schemaName string, sch *jsonschema.Schema, body []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s is not JSON: %w", what, err)
	}
	err = sch.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("%s: validating against %s: %w", what, schemaName, err)
	}
	msgs := describe(ve)
	return fmt.Errorf("%s does not match %s: %s", what, schemaName, strings.Join(msgs, "; "))
}

// describe flattens a validation error tree into one line per violation. Under oneOf and anyOf
// it keeps only the alternatives the instance plausibly meant: an alternative is set aside when it
// failed on a "role" or "type" property (the spec's discriminators) or on the instance's own JSON
// type, unless every alternative failed that way. So a tool message without tool_call_id is
// reported as that missing property, not as five mismatched roles.
func describe(ve *jsonschema.ValidationError) []string {
	seen := map[string]bool{}
	var out []string
	for _, leaf := range leaves(ve) {
		msg := (&jsonschema.ValidationError{
			SchemaURL:        leaf.SchemaURL,
			InstanceLocation: leaf.InstanceLocation,
			ErrorKind:        leaf.ErrorKind,
		}).Error()
		if !seen[msg] {
			seen[msg] = true
			out = append(out, msg)
		}
	}
	if len(out) == 0 {
		out = append(out, ve.Error())
	}
	return out
}

// leaves returns the errors without causes under ve, pruned as describe explains.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		if _, ok := ve.ErrorKind.(*kind.Schema); ok {
			return nil
		}
		return []*jsonschema.ValidationError{ve}
	}
	branches := make([][]*jsonschema.ValidationError, len(ve.Causes))
	for i, c := range ve.Causes {
		branches[i] = leaves(c)
	}
	switch ve.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		var kept [][]*jsonschema.ValidationError
		for _, b := range branches {
			if !offTarget(ve.InstanceLocation, b) {
				kept = append(kept, b)
			}
		}
		if len(kept) > 0 {
			branches = kept
		} else if merged := mergeDiscriminators(ve.InstanceLocation, branches); merged != nil {
			return []*jsonschema.ValidationError{merged}
		}
	}
	var out []*jsonschema.ValidationError
	for _, b := range branches {
		out = append(out, b...)
	}
	return out
}

// offTarget reports whether an alternative's errors show it was not the one meant for the value
// at loc: a wrong JSON type at loc itself, or a wrong enum/const value in loc's "role" or "type".
func offTarget(loc []string, errs []*jsonschema.ValidationError) bool {
	for _, e := range errs {
		switch e.ErrorKind.(type) {
		case *kind.Type:
			if len(e.InstanceLocation) == len(loc) {
				return true
			}
		case *kind.Enum, *kind.Const:
			if len(e.InstanceLocation) == len(loc)+1 {
				if last := e.InstanceLocation[len(loc)]; last == "role" || last == "type" {
					return true
				}
			}
		}
	}
	return false
}

// mergeDiscriminators handles a value that fits no alternative because its "role" (or "type") is
// none of theirs: when every alternative failed on the same such property, it returns one enum
// error listing every allowed value, else nil.
func mergeDiscriminators(loc []string, branches [][]*jsonschema.ValidationError) *jsonschema.ValidationError {
	var prop string
	var got any
	var want []any
	for _, b := range branches {
		found := false
		for _, e := range b {
			if len(e.InstanceLocation) != len(loc)+1 {
				continue
			}
			p := e.InstanceLocation[len(loc)]
			if p != "role" && p != "type" || prop != "" && p != prop {
				continue
			}
			switch k := e.ErrorKind.(type) {
			case *kind.Enum:
				got, want, found = k.Got, append(want, k.Want...), true
			case *kind.Const:
				got, want, found = k.Got, append(want, k.Want), true
			}
			if found {
				prop = p
				break
			}
		}
		if !found {
			return nil
		}
	}
	if prop == "" {
		return nil
	}
	return &jsonschema.ValidationError{
		InstanceLocation: append(append([]string(nil), loc...), prop),
		ErrorKind:        &kind.Enum{Got: got, Want: want},
	}
}

// compile parses the embedded spec, translates its component schemas to JSON Schema 2020-12 and
// compiles the three entry points.
func compile() (*compiledSchemas, error) {
	var spec map[string]any
	if err := yaml.Unmarshal(specYAML, &spec); err != nil {
		return nil, fmt.Errorf("openaispec: parsing spec/chat.openapi.yaml: %w", err)
	}
	components, _ := spec["components"].(map[string]any)
	schemas, ok := components["schemas"].(map[string]any)
	if !ok {
		return nil, errors.New("openaispec: spec/chat.openapi.yaml has no components.schemas")
	}
	if err := applyErrata(schemas); err != nil {
		return nil, fmt.Errorf("openaispec: %w", err)
	}
	defs := make(map[string]any, len(schemas))
	for name, s := range schemas {
		t, err := translate(s)
		if err != nil {
			return nil, fmt.Errorf("openaispec: translating %s: %w", name, err)
		}
		defs[name] = t
	}
	root := map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$defs":   defs,
	}
	// Round-trip through encoding/json so numbers become json.Number, as the compiler expects.
	raw, err := json.Marshal(root)
	if err != nil {
		return nil, fmt.Errorf("openaispec: encoding translated schemas: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("openaispec: decoding translated schemas: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(resourceURL, doc); err != nil {
		return nil, fmt.Errorf("openaispec: adding translated schemas: %w", err)
	}
	var out compiledSchemas
	for _, e := range []struct {
		name string
		dst  **jsonschema.Schema
	}{{RequestSchema, &out.request}, {ResponseSchema, &out.response}, {ErrorSchema, &out.errorBody}} {
		sch, err := c.Compile(resourceURL + "#/$defs/" + e.name)
		if err != nil {
			return nil, fmt.Errorf("openaispec: compiling %s: %w", e.name, err)
		}
		*e.dst = sch
	}
	return &out, nil
}

// applyErrata corrects, in the parsed copy, the one known error of the vendored revision that
// contradicts the live API: ResponseFormatJsonSchema.json_schema lists "type" as required but has
// no such property, so every real json_schema request (openai-go's included) would fail.
// Upstream issue: https://github.com/openai/openai-openapi/issues/369, fixed on main in commit
// 0f23d5faa4a3bfc269447d99b3b9c3a505d13e8b by dropping "type" from that list. It returns an error
// when the vendored schema no longer has that shape (re-vendored from a fixed revision), so the
// erratum is removed rather than silently kept.
func applyErrata(schemas map[string]any) error {
	rf, _ := schemas["ResponseFormatJsonSchema"].(map[string]any)
	props, _ := rf["properties"].(map[string]any)
	js, _ := props["json_schema"].(map[string]any)
	req, _ := js["required"].([]any)
	jsProps, _ := js["properties"].(map[string]any)
	i := slices.Index(req, any("type"))
	if _, hasType := jsProps["type"]; i < 0 || hasType {
		return errors.New(`erratum for openai-openapi#369 does not apply: ResponseFormatJsonSchema.json_schema.required no longer lists a "type" it lacks; remove applyErrata`)
	}
	js["required"] = slices.Delete(slices.Clone(req), i, i+1)
	return nil
}

// componentRefPrefix is how the spec refers to its component schemas.
const componentRefPrefix = "#/components/schemas/"

// translate returns a JSON Schema draft 2020-12 copy of an OpenAPI 3.0 Schema Object, leaving v
// untouched:
//   - "$ref": "#/components/schemas/X" becomes "#/$defs/X"; any other $ref is an error. (OpenAPI 3.0
//     ignores a $ref's siblings; the vendored schemas have none.)
//   - "nullable": true adds "null" to "type" (and null to "enum", if any); without "type" (oneOf,
//     anyOf, allOf, $ref) the schema becomes {"anyOf": [{"type": "null"}, schema]}.
//     "nullable": false is dropped.
//   - boolean "exclusiveMinimum"/"exclusiveMaximum" become the numeric 2020-12 form.
//   - OpenAPI-only keywords are dropped: "x-*" extensions, "discriminator" (the oneOf alternatives
//     it annotates still decide), "example", "externalDocs", "xml".
//
// Keywords whose values are not schemas ("enum", "const", "default", "required", descriptions)
// are copied as they are; maps under "properties", "patternProperties", "$defs" and
// "dependentSchemas" and lists under "allOf", "anyOf", "oneOf", "prefixItems" are translated
// member by member.
func translate(v any) (any, error) {
	switch s := v.(type) {
	case bool:
		return s, nil
	case map[string]any:
		return translateObject(s)
	default:
		return nil, fmt.Errorf("schema is a %T, want an object", v)
	}
}

// Classes of keyword, by what their value holds.
const (
	kwOther      = iota // copied as it is
	kwSchema            // one schema
	kwSchemaList        // a list of schemas
	kwSchemaMap         // names mapped to schemas
	kwDrop              // OpenAPI-only, no JSON Schema meaning
)

// keywordClass classifies a Schema Object keyword for translate.
func keywordClass(k string) int {
	switch k {
	case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
		"unevaluatedItems", "unevaluatedProperties", "additionalItems":
		return kwSchema
	case "allOf", "anyOf", "oneOf", "prefixItems":
		return kwSchemaList
	case "properties", "patternProperties", "$defs", "dependentSchemas":
		return kwSchemaMap
	case "discriminator", "example", "externalDocs", "xml", "nullable":
		return kwDrop
	}
	if strings.HasPrefix(k, "x-") {
		return kwDrop
	}
	return kwOther
}

// translateObject translates one Schema Object; see translate.
func translateObject(s map[string]any) (any, error) {
	out := make(map[string]any, len(s))
	for k, v := range s {
		switch {
		case keywordClass(k) == kwDrop:
			continue
		case k == "$ref":
			ref, _ := v.(string)
			name, ok := strings.CutPrefix(ref, componentRefPrefix)
			if !ok {
				return nil, fmt.Errorf("$ref %q does not point into %s", ref, componentRefPrefix)
			}
			out[k] = "#/$defs/" + name
		case keywordClass(k) == kwSchema:
			t, err := translate(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = t
		case keywordClass(k) == kwSchemaList:
			list, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%s is a %T, want a list", k, v)
			}
			tl := make([]any, len(list))
			for i, item := range list {
				t, err := translate(item)
				if err != nil {
					return nil, fmt.Errorf("%s[%d]: %w", k, i, err)
				}
				tl[i] = t
			}
			out[k] = tl
		case keywordClass(k) == kwSchemaMap:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s is a %T, want an object", k, v)
			}
			tm := make(map[string]any, len(m))
			for name, sub := range m {
				t, err := translate(sub)
				if err != nil {
					return nil, fmt.Errorf("%s.%s: %w", k, name, err)
				}
				tm[name] = t
			}
			out[k] = tm
		case k == "exclusiveMinimum" || k == "exclusiveMaximum":
			b, isBool := v.(bool)
			if !isBool {
				out[k] = v
				continue
			}
			bound := "minimum"
			if k == "exclusiveMaximum" {
				bound = "maximum"
			}
			if b {
				if n, ok := s[bound]; ok {
					out[k] = n
				}
			}
		default:
			out[k] = v
		}
	}
	// A boolean exclusive bound replaces its inclusive twin.
	for k, bound := range map[string]string{"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"} {
		if b, ok := s[k].(bool); ok && b {
			delete(out, bound)
		}
	}
	if nullable, _ := s["nullable"].(bool); nullable {
		return makeNullable(out), nil
	}
	return out, nil
}

// makeNullable applies OpenAPI 3.0 "nullable": true to a translated schema.
func makeNullable(s map[string]any) map[string]any {
	t, hasType := s["type"]
	if !hasType {
		return map[string]any{"anyOf": []any{map[string]any{"type": "null"}, s}}
	}
	switch tt := t.(type) {
	case string:
		if tt != "null" {
			s["type"] = []any{tt, "null"}
		}
	case []any:
		s["type"] = append(append([]any(nil), tt...), "null")
	}
	if enum, ok := s["enum"].([]any); ok {
		s["enum"] = append(append([]any(nil), enum...), nil)
	}
	return s
}

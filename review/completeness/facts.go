package completeness

import "strings"

// FactKind says what a [Fact] is about.
type FactKind string

// The kinds of [Fact]. Facts of funcs and methods have every kind; facts of
// types are only [KindLock] and [KindDeprecated].
const (
	// KindParam is a named parameter (not the receiver, not "_", not a
	// context.Context, whose type says what it is for). Name is the
	// parameter.
	KindParam FactKind = "param"
	// KindResult is a named result. Name is the result; unnamed results
	// are no facts.
	KindResult FactKind = "result"
	// KindError is an exported sentinel error (a package-level variable of
	// an error type: ErrNotFound, io.EOF) or an exported error type
	// (*SyntaxError) that the function returns in a result declared as
	// error, itself or through module callees at most two calls deep,
	// unwrapped or wrapped with %w. Name is how a caller names it
	// ("ErrNotFound", "io.EOF", "*SyntaxError"); Hops lists the callees
	// that return it.
	KindError FactKind = "error"
	// KindPanic is a call of the builtin panic in the function's own body
	// (not in a func literal), in a function that does not recover. Cond
	// is the condition of the if directly holding it, when short; one fact
	// per distinct condition.
	KindPanic FactKind = "panic"
	// KindDefault is a value substituted for a zero parameter or a zero
	// field of a parameter: "if ttl <= 0 { ttl = DefaultTTL }". Name is
	// the substitute when it is a named constant or package-level variable
	// (DefaultTTL), else empty (a literal); Value is its constant value
	// ("30s", "4096", `"utf-8"`), Cond the zero test ("ttl <= 0").
	KindDefault FactKind = "default"
	// KindConst is a constant of the function's own package that its body
	// compares with <, <=, > or >= (a bound: maxSize, MaxRetries). Name is
	// the constant, Value its value, Cond the comparison.
	KindConst FactKind = "const"
	// KindUnit is a number parameter whose name carries a unit its type
	// does not (timeoutMs, sizeKB, seconds). Name is the parameter, Value
	// the unit ("milliseconds", "kilobytes", "seconds").
	KindUnit FactKind = "unit"
	// KindBlocks is a point where the function's own body can wait: a
	// channel send or receive or a select outside a select with a default
	// case, a range over a channel, sync.WaitGroup.Wait, sync.Cond.Wait or
	// time.Sleep. Name says which ("channel receive"); one fact per
	// function.
	KindBlocks FactKind = "blocks"
	// KindGoroutine is a go statement in the function's own body; one fact
	// per function.
	KindGoroutine FactKind = "goroutine"
	// KindLock is, for a func or method, a Lock or RLock call of a
	// sync.Mutex or sync.RWMutex held in a field of the receiver or a
	// package-level variable (Name is the mutex: "c.mu"); for a type, a
	// struct field of such a mutex type, embedded or named (Name is the
	// field). One fact per symbol.
	KindLock FactKind = "lock"
	// KindDeprecated is a "Deprecated:" paragraph in the doc comment. It
	// is stated by definition and does not count in coverage: it informs,
	// it does not score.
	KindDeprecated FactKind = "deprecated"
)

// Fact is one thing a caller needs to know about a symbol that its code
// determines, with the lines that prove it at the analysed revision.
type Fact struct {
	Kind FactKind `json:"kind"`
	// Name is the identifier the doc should name: a parameter, a sentinel
	// (ErrNotFound), an error type (*SyntaxError), a constant (DefaultTTL);
	// see the kinds for the rest.
	Name string `json:"name"`
	// Value is the literal value when there is one ("30s", "100",
	// `"utf-8"`), or the unit of a [KindUnit] fact.
	Value string `json:"value,omitempty"`
	// Cond is the condition under which the fact holds, when it is short
	// and decidable ("n < 0").
	Cond string `json:"cond,omitempty"`
	// Path, Line and EndLine are the evidence: repository-relative,
	// slash-separated, 1-based.
	Path    string `json:"path"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	// Hops names the callees through which the fact was reached, outermost
	// first ("parseHeader", "readLine"); empty for the symbol's own code.
	Hops []string `json:"hops,omitempty"`
}

// counts reports whether the fact counts in coverage: every kind but
// [KindDeprecated].
func (f Fact) counts() bool { return f.Kind != KindDeprecated }

// Label is the fact in a few words, as the table's missing column and
// messages name it: "error ErrNotFound (via parse)", "default DefaultTTL =
// 30s", "panic when n < 0", "unit timeoutMs in milliseconds".
func (f Fact) Label() string {
	s := strings.TrimSpace(string(f.Kind) + " " + f.Name)
	switch f.Kind {
	case KindPanic, KindBlocks, KindGoroutine:
		s = string(f.Kind)
		if f.Kind == KindBlocks && f.Name != "" {
			s += " (" + f.Name + ")"
		}
	case KindUnit:
		s += " in " + f.Value
		return s
	}
	if f.Value != "" && f.Value != f.Name {
		s += " = " + f.Value
	}
	if f.Cond != "" {
		s += " when " + f.Cond
	}
	if len(f.Hops) > 0 {
		s += " (via " + joinHops(f.Hops) + ")"
	}
	return s
}

func joinHops(hops []string) string {
	s := ""
	for i, h := range hops {
		if i > 0 {
			s += " → "
		}
		s += h
	}
	return s
}

// Symbol is an exported func, method or type of a package with the facts of
// its contract and which of them its doc comment states.
type Symbol struct {
	// Package is the import path of the symbol's package.
	Package string `json:"package"`
	// Name is qualified within the package: "New", "Cache.Purge", "Cache".
	Name string `json:"name"`
	// Kind is "func", "method" or "type".
	Kind string `json:"kind"`
	// Path and Line locate the declaration (not its doc comment).
	Path string `json:"path"`
	Line int    `json:"line"`
	// Doc is the doc comment's text as [go/ast.CommentGroup.Text] gives it.
	Doc string `json:"doc"`
	// Facts are in source order within each kind; Stated[i] says whether
	// Doc states Facts[i] ([Stated]).
	Facts  []Fact `json:"facts"`
	Stated []bool `json:"stated"`
	// DocTokens counts the words of Doc (runs of non-space characters);
	// CodeTokens the Go tokens of the declaration without comments, body
	// included.
	DocTokens  int `json:"doc_tokens"`
	CodeTokens int `json:"code_tokens"`
}

// Key is the symbol's name qualified by its import path,
// "example.com/m/cache.Cache.Purge": the key [Compare] matches symbols by.
func (s Symbol) Key() string { return s.Package + "." + s.Name }

// counted returns the number of facts that count in coverage and of those
// the doc states.
func (s Symbol) counted() (facts, stated int) {
	for i, f := range s.Facts {
		if !f.counts() {
			continue
		}
		facts++
		if i < len(s.Stated) && s.Stated[i] {
			stated++
		}
	}
	return facts, stated
}

// Coverage returns the fraction of the symbol's facts that its doc states,
// deprecation left out; 1 when it has no such fact.
func (s Symbol) Coverage() float64 {
	n, stated := s.counted()
	if n == 0 {
		return 1
	}
	return float64(stated) / float64(n)
}

// Missing returns the facts its doc does not state, in order.
func (s Symbol) Missing() []Fact {
	var out []Fact
	for i, f := range s.Facts {
		if f.counts() && (i >= len(s.Stated) || !s.Stated[i]) {
			out = append(out, f)
		}
	}
	return out
}

// Deprecated reports whether the doc comment has a "Deprecated:"
// paragraph.
func (s Symbol) Deprecated() bool {
	for _, f := range s.Facts {
		if f.Kind == KindDeprecated {
			return true
		}
	}
	return false
}

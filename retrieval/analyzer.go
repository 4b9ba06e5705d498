package retrieval

import (
	"fmt"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// indexFormatVersion names the document layout and analysis of the index.
// Change it whenever the fields, the analysis or the chunking change, so
// that existing indexes are rebuilt instead of reused or updated.
const indexFormatVersion = "docreview-index-2"

// Document fields. docreview analyzes chunks itself (see [indexAnalyzer])
// and hands bleve documents whose fields carry their terms, so a chunk's
// text is scanned once for all its fields and bleve's analyzers are not
// used.
const (
	// indexFieldPath is the file path as one term; stored.
	indexFieldPath = "path"
	// indexFieldSource is the Source as one term; stored.
	indexFieldSource = "source"
	// indexFieldLang is the language; stored only.
	indexFieldLang = "lang"
	// indexFieldSymbol holds the symbol's whole identifiers, lower-cased
	// ("Cache.Purge": cache, purge); stored.
	indexFieldSymbol = "symbol"
	// indexFieldHeading holds the heading's words, as indexFieldText; stored.
	indexFieldHeading = "heading"
	// indexFieldText holds the words of the chunk: identifiers split into
	// their camelCase, snake_case and digit parts, lower-cased, English stop
	// words removed, stemmed (Snowball English): "parseHTTPRequests the
	// max_retry" gives pars, http, request, max, retri. Stored.
	indexFieldText = "text"
	// indexFieldIdent holds the chunk's compound identifiers whole,
	// lower-cased: "parsehttprequests", "max_retry". An identifier of one
	// part ("Purge") is only in indexFieldText.
	indexFieldIdent = "ident"
	// indexFieldQual holds the chunk's dotted names whole, lower-cased:
	// "cache.purge", "http.client.do".
	indexFieldQual = "qual"
	// indexFieldStart and indexFieldEnd are the chunk's lines; stored only,
	// as numbers.
	indexFieldStart = "start"
	indexFieldEnd   = "end"
)

// indexMaxTermBytes bounds the length of a term: longer identifiers (hex
// strings, base64 data) are not indexed.
const indexMaxTermBytes = 128

// indexCacheSize bounds each of an analyzer's caches; a full cache is
// cleared.
const indexCacheSize = 1 << 16

// indexStoredFields returns the stored fields a search loads to rebuild a
// Chunk.
func indexStoredFields() []string {
	return []string{
		indexFieldPath, indexFieldSource, indexFieldLang, indexFieldSymbol,
		indexFieldHeading, indexFieldText, indexFieldStart, indexFieldEnd,
	}
}

// indexMapping returns the bleve mapping of docreview's indexes: BM25
// scoring, no dynamic fields, no _all field. Documents are built by
// [indexAnalyzer.document] and indexed with bleve's IndexAdvanced, so the
// mapping does not describe their fields; queries name fields and terms
// directly.
func indexMapping() (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	im.IndexDynamic = false
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	im.DefaultAnalyzer = keyword.Name
	im.DefaultMapping = bleve.NewDocumentStaticMapping()
	if err := im.Validate(); err != nil {
		return nil, fmt.Errorf("validate index mapping: %w", err)
	}
	return im, nil
}

// indexAnalyzer turns text into the terms of the index's fields. It is not
// safe for concurrent use; it is cheap to make one per goroutine.
type indexAnalyzer struct {
	stop analysis.TokenMap // read only, may be shared
	// stems maps lower-case parts to their stems and idents interns
	// lower-case identifiers, so that documents share their term strings;
	// both nil when not caching.
	stems  map[string]indexWord
	idents map[string]indexTerm
	buf    []byte          // scratch for lower-casing
	acc    [3]indexTermAcc // scratch for document
}

// indexTerm is a term both as a string (a map key) and as bytes (bleve's
// TokenFreq.Term), made once and shared by the documents that have it.
// Nothing changes its bytes.
type indexTerm struct {
	s string
	b []byte
}

// indexWord is a cached word: its stem, or that it is a stop word.
type indexWord struct {
	term indexTerm
	stop bool
}

func newIndexTerm(b []byte) indexTerm {
	s := string(b)
	return indexTerm{s: s, b: []byte(s)}
}

// indexStopWords returns the English stop words (the Snowball list bleve's
// "en" analyzer uses).
func indexStopWords() analysis.TokenMap {
	stop := analysis.NewTokenMap()
	// The list is a compiled-in constant; LoadBytes fails only on a read
	// error of its in-memory reader.
	_ = stop.LoadBytes(en.EnglishStopWords)
	return stop
}

// newIndexAnalyzer returns an analyzer with the stop words stop, caching
// stems and identifiers if cache (worth it for whole files, not for one
// query).
func newIndexAnalyzer(stop analysis.TokenMap, cache bool) *indexAnalyzer {
	a := &indexAnalyzer{stop: stop}
	if cache {
		a.stems = make(map[string]indexWord)
		a.idents = make(map[string]indexTerm)
	}
	return a
}

// indexIdentRune reports whether r is part of an identifier: a letter, a
// digit or an underscore.
func indexIdentRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// indexScan calls ident for each identifier of s (a maximal run of
// letters, digits and underscores) and, if dotted is not nil, dotted for
// each dotted name: two or more identifiers that start with a letter or an
// underscore, joined by single dots ("http.Client.Do").
func indexScan(s string, ident func(string), dotted func(string)) {
	chainStart, chainEnd, chainLen := 0, 0, 0
	flush := func() {
		if chainLen >= 2 {
			dotted(s[chainStart:chainEnd])
		}
		chainLen = 0
	}
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if !indexIdentRune(r) {
			i += size
			continue
		}
		start, first := i, r
		i += size
		for i < len(s) {
			r, size := rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(s[i:])
			}
			if !indexIdentRune(r) {
				break
			}
			i += size
		}
		ident(s[start:i])
		if dotted == nil {
			continue
		}
		letter := first == '_' || !('0' <= first && first <= '9') && !unicode.IsNumber(first)
		switch {
		case letter && chainLen > 0 && chainEnd+1 == start && s[chainEnd] == '.':
			chainEnd = i
			chainLen++
		case letter:
			flush()
			chainStart, chainEnd, chainLen = start, i, 1
		default:
			flush()
		}
	}
	if dotted != nil {
		flush()
	}
}

// Rune classes for splitting identifiers into parts.
const (
	indexClassSep = iota // underscore
	indexClassLower
	indexClassUpper
	indexClassDigit
	indexClassOther // a letter without case
)

func indexClass(r rune) int {
	switch {
	case r == '_':
		return indexClassSep
	case 'a' <= r && r <= 'z':
		return indexClassLower
	case 'A' <= r && r <= 'Z':
		return indexClassUpper
	case '0' <= r && r <= '9':
		return indexClassDigit
	case r < utf8.RuneSelf:
		return indexClassSep
	case unicode.IsLower(r):
		return indexClassLower
	case unicode.IsUpper(r):
		return indexClassUpper
	case unicode.IsNumber(r):
		return indexClassDigit
	}
	return indexClassOther
}

// indexParts calls fn for each part of the identifier id: it is split at
// underscores, before an upper-case letter that follows a lower-case one,
// before the last of a run of capitals followed by a lower-case letter
// ("HTTPRequest": HTTP, Request), and between digits and letters. It
// returns the number of parts.
func indexParts(id string, fn func(string)) int {
	n, start, prev := 0, -1, indexClassSep
	for i := 0; i < len(id); {
		r, size := rune(id[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(id[i:])
		}
		c := indexClass(r)
		switch {
		case c == indexClassSep:
			if start >= 0 {
				fn(id[start:i])
				n++
				start = -1
			}
		case start < 0:
			start = i
		case indexPartBoundary(prev, c, id[i+size:]):
			fn(id[start:i])
			n++
			start = i
		}
		prev = c
		i += size
	}
	if start >= 0 {
		fn(id[start:])
		n++
	}
	return n
}

// indexPartBoundary reports whether a part ends between a rune of class
// prev and one of class c followed by rest.
func indexPartBoundary(prev, c int, rest string) bool {
	switch {
	case prev == indexClassUpper && c == indexClassUpper:
		if rest == "" {
			return false
		}
		r, _ := utf8.DecodeRuneInString(rest)
		return indexClass(r) == indexClassLower
	case prev == indexClassUpper && c == indexClassLower:
		return false
	}
	return prev != c
}

// lower returns s lower-cased, in a scratch buffer valid until the next
// call.
func (a *indexAnalyzer) lower(s string) []byte {
	a.buf = a.buf[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return append(a.buf[:0], []byte(toLowerString(s))...)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		a.buf = append(a.buf, c)
	}
	return a.buf
}

// toLowerString lower-cases s rune by rune.
func toLowerString(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return string(b)
}

// word returns the Snowball English stem of the lower-case word w, and
// false if w is an English stop word.
func (a *indexAnalyzer) word(w []byte) (indexTerm, bool) {
	if e, ok := a.stems[string(w)]; ok {
		return e.term, !e.stop
	}
	e := indexWord{stop: a.stop[string(w)]}
	if !e.stop {
		env := snowballstem.NewEnv(string(w))
		english.Stem(env)
		e.term = indexTerm{s: env.Current()}
		e.term.b = []byte(e.term.s)
	}
	if a.stems != nil {
		if len(a.stems) >= indexCacheSize {
			clear(a.stems)
		}
		a.stems[string(w)] = e
	}
	return e.term, !e.stop
}

// stem returns the stem of the lower-case word w, "" for a stop word.
func (a *indexAnalyzer) stem(w []byte) string {
	t, _ := a.word(w)
	return t.s
}

// intern returns the term b, from the cache if it has it.
func (a *indexAnalyzer) intern(b []byte) indexTerm {
	if t, ok := a.idents[string(b)]; ok {
		return t
	}
	t := newIndexTerm(b)
	if a.idents != nil {
		if len(a.idents) >= indexCacheSize {
			clear(a.idents)
		}
		a.idents[t.s] = t
	}
	return t
}

// words calls fn with the stem of each part of each identifier of s that
// is not an English stop word.
func (a *indexAnalyzer) words(s string, fn func(indexTerm)) {
	a.text(s, fn, nil, nil)
}

// text scans s once and calls word with the stem of each part of each
// identifier that is not an English stop word; ident, if not nil, with
// each compound identifier (one that is not a single part), lower-cased;
// and dotted, if not nil, with each dotted name, lower-cased.
func (a *indexAnalyzer) text(s string, word, ident, dotted func(indexTerm)) {
	var dfn func(string)
	if dotted != nil {
		dfn = func(d string) {
			if len(d) <= indexMaxTermBytes {
				dotted(a.intern(a.lower(d)))
			}
		}
	}
	indexScan(s, func(id string) {
		if len(id) > indexMaxTermBytes {
			return
		}
		single := false
		n := indexParts(id, func(p string) {
			single = len(p) == len(id)
			if t, ok := a.word(a.lower(p)); ok {
				word(t)
			}
		})
		if ident != nil && (n > 1 || n == 1 && !single) {
			ident(a.intern(a.lower(id)))
		}
	}, dfn)
}

// symbolTerms calls fn with each identifier of a symbol name, whole and
// lower-cased.
func (a *indexAnalyzer) symbolTerms(s string, fn func(indexTerm)) {
	indexScan(s, func(id string) {
		if len(id) <= indexMaxTermBytes {
			fn(a.intern(a.lower(id)))
		}
	}, nil)
}

// indexTermAcc counts the terms of one field of one document; it is
// reused from document to document.
type indexTermAcc struct {
	at     map[string]int // term → index in terms
	terms  []indexTerm
	counts []int32
	length int
}

func (c *indexTermAcc) add(t indexTerm) {
	if c.at == nil {
		c.at = make(map[string]int)
	}
	c.length++
	if i, ok := c.at[t.s]; ok {
		c.counts[i]++
		return
	}
	c.at[t.s] = len(c.terms)
	c.terms = append(c.terms, t)
	c.counts = append(c.counts, 1)
}

// take returns the terms counted so far, nil if none, and resets c.
func (c *indexTermAcc) take() *indexFieldTerms {
	if c.length == 0 {
		return nil
	}
	t := &indexFieldTerms{terms: slices.Clone(c.terms), counts: slices.Clone(c.counts), length: c.length}
	clear(c.at)
	c.terms, c.counts, c.length = c.terms[:0], c.counts[:0], 0
	return t
}

// indexFieldTerms are the terms of one field of one document, compact
// until bleve analyzes the document.
type indexFieldTerms struct {
	terms  []indexTerm
	counts []int32
	length int
}

// indexField is a document field whose terms docreview computed. Analyze,
// which bleve calls while it indexes a batch, turns them into bleve's
// frequency map, so that only the batch being indexed holds maps.
type indexField struct {
	name    string
	value   []byte
	options index.FieldIndexingOptions
	pending *indexFieldTerms // before Analyze; nil for a stored-only field
	freqs   index.TokenFrequencies
	length  int
}

var _ document.Field = (*indexField)(nil)

func (f *indexField) Name() string                                     { return f.name }
func (f *indexField) ArrayPositions() []uint64                         { return nil }
func (f *indexField) Options() index.FieldIndexingOptions              { return f.options }
func (f *indexField) Value() []byte                                    { return f.value }
func (f *indexField) NumPlainTextBytes() uint64                        { return uint64(len(f.value)) }
func (f *indexField) EncodedFieldType() byte                           { return 't' }
func (f *indexField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }
func (f *indexField) AnalyzedLength() int                              { return f.length }

func (f *indexField) Analyze() {
	p := f.pending
	if p == nil {
		return
	}
	f.pending = nil
	f.length = p.length
	f.freqs = make(index.TokenFrequencies, len(p.terms))
	slab := make([]index.TokenFreq, len(p.terms))
	for i, t := range p.terms {
		tf := &slab[i]
		tf.Term = t.b
		tf.SetFrequency(int(p.counts[i]))
		f.freqs[t.s] = tf
	}
}

func (f *indexField) Size() int {
	n := 64 + len(f.name) + len(f.value)
	if f.pending != nil {
		n += 48 * len(f.pending.terms)
	}
	return n + 96*len(f.freqs)
}

// document returns the bleve document of c, its fields' terms counted.
func (a *indexAnalyzer) document(c Chunk) *document.Document {
	d := document.NewDocument(c.ID)
	d.Fields = make([]document.Field, 0, 10)
	acc := &a.acc[0]
	add := func(name, value string, options index.FieldIndexingOptions) {
		d.AddField(&indexField{name: name, value: []byte(value), options: options, pending: acc.take()})
	}
	acc.add(newIndexTerm([]byte(c.Path)))
	add(indexFieldPath, c.Path, index.IndexField|index.StoreField)
	acc.add(newIndexTerm([]byte(c.Source)))
	add(indexFieldSource, string(c.Source), index.IndexField|index.StoreField)
	if c.Lang != "" {
		add(indexFieldLang, c.Lang, index.StoreField)
	}
	if c.Symbol != "" {
		a.symbolTerms(c.Symbol, acc.add)
		add(indexFieldSymbol, c.Symbol, index.IndexField|index.StoreField)
	}
	if c.Heading != "" {
		a.words(c.Heading, acc.add)
		add(indexFieldHeading, c.Heading, index.IndexField|index.StoreField)
	}
	idents, quals := &a.acc[1], &a.acc[2]
	a.text(c.Text, acc.add, idents.add, quals.add)
	add(indexFieldText, c.Text, index.IndexField|index.StoreField)
	if t := idents.take(); t != nil {
		d.AddField(&indexField{name: indexFieldIdent, options: index.IndexField, pending: t})
	}
	if t := quals.take(); t != nil {
		d.AddField(&indexField{name: indexFieldQual, options: index.IndexField, pending: t})
	}
	d.AddField(document.NewNumericFieldWithIndexingOptions(indexFieldStart, nil, float64(c.StartLine), index.StoreField))
	d.AddField(document.NewNumericFieldWithIndexingOptions(indexFieldEnd, nil, float64(c.EndLine), index.StoreField))
	return d
}

// indexChunkFromFields rebuilds a chunk from its ID and stored fields.
func indexChunkFromFields(id string, fields map[string]any) Chunk {
	str := func(k string) string { s, _ := fields[k].(string); return s }
	num := func(k string) int { f, _ := fields[k].(float64); return int(f) }
	return Chunk{
		ID:        id,
		Path:      str(indexFieldPath),
		StartLine: num(indexFieldStart),
		EndLine:   num(indexFieldEnd),
		Source:    Source(str(indexFieldSource)),
		Symbol:    str(indexFieldSymbol),
		Heading:   str(indexFieldHeading),
		Lang:      str(indexFieldLang),
		Text:      str(indexFieldText),
	}
}

package retrieval

import (
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/camelcase"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/regexp"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

// indexFormatVersion names the document layout and analysis of the index.
// Change it whenever the mapping, the analyzers or the chunking change, so
// that existing indexes are rebuilt instead of reused.
const indexFormatVersion = "docreview-index-1"

// Analyzer names registered in the index mapping (persisted with it).
const (
	// indexAnalyzerCode splits text into runs of letters and digits, then
	// camelCase parts, lower-cased: "parseHTTPRequest max_retry" gives
	// parse, http, request, max, retry.
	indexAnalyzerCode = "docreview_code"
	// indexAnalyzerIdent keeps identifiers whole, lower-cased: camelCase
	// and snake_case words stay one token; dots and other punctuation split.
	indexAnalyzerIdent = "docreview_ident"
	// indexAnalyzerQualified keeps only dotted names whole, lower-cased:
	// "Cache.Purge", "http.Client.Do".
	indexAnalyzerQualified = "docreview_qualified"
)

// Document fields. The chunk text is indexed four times: English prose
// (stemmed, stop words removed), code parts, whole identifiers and dotted
// names.
const (
	indexFieldPath        = "path"   // keyword, stored
	indexFieldSource      = "source" // keyword, stored
	indexFieldLang        = "lang"   // keyword, stored
	indexFieldSymbol      = "symbol" // keyword, stored
	indexFieldSymbolIdent = "symbol_ident"
	indexFieldHeading     = "heading" // English, stored
	indexFieldText        = "text"    // English, stored
	indexFieldTextCode    = "text_code"
	indexFieldTextIdent   = "text_ident"
	indexFieldTextQual    = "text_qual"
	indexFieldStart       = "start" // number, stored only
	indexFieldEnd         = "end"   // number, stored only
)

// indexStoredFields returns the stored fields a search loads to rebuild a
// Chunk.
func indexStoredFields() []string {
	return []string{
		indexFieldPath, indexFieldSource, indexFieldLang, indexFieldSymbol,
		indexFieldHeading, indexFieldText, indexFieldStart, indexFieldEnd,
	}
}

// indexMapping returns the bleve mapping of docreview's chunk documents:
// BM25 scoring, no dynamic fields, no _all field.
func indexMapping() (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	im.IndexDynamic = false
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	im.DefaultAnalyzer = en.AnalyzerName

	tokenizers := []struct{ name, re string }{
		{"docreview_words", `[\p{L}\p{N}]+`},
		{"docreview_idents", `[\p{L}\p{N}_]+`},
		{"docreview_dotted", `[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)+`},
	}
	for _, t := range tokenizers {
		if err := im.AddCustomTokenizer(t.name, map[string]any{"type": regexp.Name, "regexp": t.re}); err != nil {
			return nil, fmt.Errorf("define tokenizer %s: %w", t.name, err)
		}
	}
	analyzers := []struct {
		name, tokenizer string
		filters         []any
	}{
		{indexAnalyzerCode, "docreview_words", []any{camelcase.Name, lowercase.Name}},
		{indexAnalyzerIdent, "docreview_idents", []any{lowercase.Name}},
		{indexAnalyzerQualified, "docreview_dotted", []any{lowercase.Name}},
	}
	for _, a := range analyzers {
		err := im.AddCustomAnalyzer(a.name, map[string]any{
			"type": custom.Name, "tokenizer": a.tokenizer, "token_filters": a.filters,
		})
		if err != nil {
			return nil, fmt.Errorf("define analyzer %s: %w", a.name, err)
		}
	}

	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(indexFieldPath, indexField(indexFieldPath, keyword.Name, true))
	doc.AddFieldMappingsAt(indexFieldSource, indexField(indexFieldSource, keyword.Name, true))
	doc.AddFieldMappingsAt(indexFieldLang, indexField(indexFieldLang, keyword.Name, true))
	doc.AddFieldMappingsAt(indexFieldSymbol,
		indexField(indexFieldSymbol, keyword.Name, true),
		indexField(indexFieldSymbolIdent, indexAnalyzerIdent, false))
	doc.AddFieldMappingsAt(indexFieldHeading, indexField(indexFieldHeading, en.AnalyzerName, true))
	doc.AddFieldMappingsAt(indexFieldText,
		indexField(indexFieldText, en.AnalyzerName, true),
		indexField(indexFieldTextCode, indexAnalyzerCode, false),
		indexField(indexFieldTextIdent, indexAnalyzerIdent, false),
		indexField(indexFieldTextQual, indexAnalyzerQualified, false))
	for _, name := range []string{indexFieldStart, indexFieldEnd} {
		f := bleve.NewNumericFieldMapping()
		f.Name, f.Index, f.Store, f.IncludeInAll, f.DocValues = name, false, true, false, false
		doc.AddFieldMappingsAt(name, f)
	}
	im.DefaultMapping = doc

	if err := im.Validate(); err != nil {
		return nil, fmt.Errorf("validate index mapping: %w", err)
	}
	return im, nil
}

// indexField returns a text field mapping named name, analyzed with
// analyzer, stored if store, without term vectors, doc values or _all.
func indexField(name, analyzer string, store bool) *mapping.FieldMapping {
	f := bleve.NewTextFieldMapping()
	f.Name = name
	f.Analyzer = analyzer
	f.Store = store
	f.IncludeTermVectors = false
	f.IncludeInAll = false
	f.DocValues = false
	return f
}

// indexDocument is the bleve document of a chunk.
func indexDocument(c Chunk) map[string]any {
	d := map[string]any{
		indexFieldPath:   c.Path,
		indexFieldSource: string(c.Source),
		indexFieldText:   c.Text,
		indexFieldStart:  float64(c.StartLine),
		indexFieldEnd:    float64(c.EndLine),
	}
	if c.Lang != "" {
		d[indexFieldLang] = c.Lang
	}
	if c.Symbol != "" {
		d[indexFieldSymbol] = c.Symbol
	}
	if c.Heading != "" {
		d[indexFieldHeading] = c.Heading
	}
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

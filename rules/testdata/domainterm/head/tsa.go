package db

import "errors"

// timeStampResp is the ASN.1 TimeStampResp structure (RFC 3161).
type timeStampResp struct{}

// parseResp parses a DER-encoded TimeStampResp.
func parseResp() timeStampResp { return timeStampResp{} }

// fontKey is the key of a font's name in its dictionary.
const fontKey = "/BaseFont"

// ParseFont reads a font.
func ParseFont() {}

// FontName returns the PDF BaseFont name of a font.
func FontName() string { return fontKey }

// Verify checks a response: call parseRespp first.
func Verify() { _ = parseResp() }

// SignerInfos lists the SignerInfo entries of a signed message.
type SignerInfos []int

// Count counts each SignerInfo of a signed message.
func Count(s SignerInfos) int { return len(s) }

// Options configure a table.
type Options struct{ BaseTableSize, MemTableSize int }

// WithBaseTableSize returns o with MaxTableSize set to n.
func (o Options) WithBaseTableSize(n int) Options {
	o.BaseTableSize = n
	return o
}

var errTooBig = errors.New("db: table too big: increase opt.MaxTableSize")

// OP_MSG is the opcode of a message, as the wire protocol spells it.
const OpMsg = 2013

package retrieval

import (
	"go/types"
	"strings"
)

// RenamedFrom returns the name at head (s) of a symbol that name, written
// in the documentation of the package in fromDir, referred to at the base
// commit (base): the name resolves in base but not in s, and the package
// that declared it has exactly one symbol of the same kind, on the same
// type for members, that base lacks and whose signature is identical up to
// parameter names ("Store.Reserve" -> "Store.Hold" for two
// func(sku string, qty int) (Reservation, error) methods). The result keeps
// name's qualifier ("inventory.Store.Hold"). It returns false otherwise,
// also when several new symbols match.
func (s *Symbols) RenamedFrom(base *Symbols, fromDir, name string) (string, bool) {
	if base == nil || s.Resolves(fromDir, name) {
		return "", false
	}
	old, ok := base.Lookup(fromDir, name)
	if !ok || old.Object == nil || old.Package == nil || old.Package.std {
		return "", false
	}
	hp := s.byPath[old.Package.ImportPath]
	bp := base.byPath[old.Package.ImportPath]
	if hp == nil || bp == nil {
		return "", false
	}
	owner, _, isMember := strings.Cut(old.Name, ".")
	key := symRenameKey(old.Object)
	var found []*Symbol
	for _, sym := range hp.syms {
		if sym.Kind != old.Kind || sym.Object == nil || bp.symByName[sym.Name] != nil {
			continue
		}
		o, _, m := strings.Cut(sym.Name, ".")
		if m != isMember || (isMember && o != owner) {
			continue
		}
		if symRenameKey(sym.Object) == key {
			found = append(found, sym)
		}
	}
	if len(found) != 1 {
		return "", false
	}
	norm := symNormRef(name)
	prefix, ok := strings.CutSuffix(norm, old.Name)
	if !ok {
		// The reference reached the symbol another way ("Cache.Hits" for
		// base.Hits); say the new declared name.
		return found[0].Name, true
	}
	return prefix + found[0].Name, true
}

// symRenameKey describes an object's type without parameter names and with
// packages by path, so that objects of two type-checks compare.
func symRenameKey(obj types.Object) string {
	qual := func(p *types.Package) string { return p.Path() }
	switch o := obj.(type) {
	case *types.Func:
		sig := o.Type().(*types.Signature)
		var b strings.Builder
		b.WriteString("func(")
		for i := 0; i < sig.Params().Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			t := sig.Params().At(i).Type()
			if sig.Variadic() && i == sig.Params().Len()-1 {
				b.WriteString("...")
				if sl, ok := t.(*types.Slice); ok {
					t = sl.Elem()
				}
			}
			b.WriteString(types.TypeString(t, qual))
		}
		b.WriteString(") (")
		for i := 0; i < sig.Results().Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(types.TypeString(sig.Results().At(i).Type(), qual))
		}
		b.WriteString(")")
		return b.String()
	case *types.TypeName:
		return "type " + types.TypeString(o.Type().Underlying(), qual)
	case *types.Const:
		return "const " + types.TypeString(o.Type(), qual) + " = " + o.Val().ExactString()
	}
	return "var " + types.TypeString(obj.Type(), qual)
}
